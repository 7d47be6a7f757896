"""The counterexample-guided learning loop as a fold over immutable epoch states, with the
learners (LLM and symbolic) and strategies that drive it."""
