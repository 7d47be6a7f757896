"""Teachers: exact equivalence with (clustered) counterexamples, test-suite oracles, hardening
probes, and the small protocol a user implements to plug in a custom oracle."""
