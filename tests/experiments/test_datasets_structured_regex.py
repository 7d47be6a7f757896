"""StructuredRegex: the DSL read into our AST, and a split file read with the csv module."""

from __future__ import annotations

from pathlib import Path

import pytest

from automata import compile_regex
from experiments.datasets import DatasetNotFound, MalformedDataset
from experiments.datasets.structured_regex import UNIVERSE, load_structured_regex, parse_dsl

#: Rows of the data README (section 2) with their given examples.
ROWS = [
    (
        "concat(repeatrange(<U>,1,3),concat(or(<a>,<n>),optional(repeatrange(<U>,1,3))))",
        "UUUnU UUn UUaUUU UUaU UUUnUU UaUU",
        "UUUt UUUtUUU UdUU UUUUaU UUUUn UUdUUU",
    ),
    (
        "concat(repeat(<G>,2),concat(repeat(notcc(<let>),4),repeatatleast(<let>,2)))",
        "GG_^1^qUaowjzRwROKL GG%1_.psiUvUlcWgT GG%1_.psiUvUlcWJw GG&^^9ACpqubPVGYOF GG3,^^sUmPLHfOgpPInx GG2-_4zTeW",
        "GG#!^uBxrKlYIBUpyGE GG!^^-T G5*@_ZOBXkUsIFarLSg GG^_^EEcaDTm G^^_*moVvIf G@___JNTnHQC",
    ),
    (
        "and(not(endwith(<low>)),and(startwith(<cap>),not(contain(concat(<num>,<let>)))))",
        "HNu2 Z-#p.Qz,*3-*$w=t+d45 Hx#7_+Tp,8;-$a6+*i5 O#vm+!v-*%.7;D$+ Fx=#W8@7&0:50@5119 K1_4=",
        "85- Aho0:w P+S-%W,w H5^#x#Irx $-YZD61.& 4!mz*T5-+-",
    ),
    (
        "and(repeatatleast(or(<let>,or(<spec>,<num>)),1),repeatrange(<any>,0,8))",
        "=,._= +N! !6&,_7$ w!_;9_O! =,._^ w!_;9_O#",
        "*eA2*_!8x *eA2*_!8_ *eA2*_!8= *eA2*_!8,",
    ),
    ("concat(const(<95>),or(<,>,<spec>))", "95, 95- 95=", "95 96, 95a"),
]


@pytest.mark.parametrize(("dsl", "positives", "negatives"), ROWS)
def test_the_dsl_means_what_its_examples_say(dsl: str, positives: str, negatives: str) -> None:
    dfa = compile_regex(parse_dsl(dsl), UNIVERSE)
    assert all(dfa.accepts(s) for s in positives.split(" "))
    assert not any(dfa.accepts(s) for s in negatives.split(" "))


def test_a_split_file_is_read_as_tsv_with_quotes_and_empty_strings(tmp_path: Path) -> None:
    (tmp_path / "raw").mkdir()
    header = "problem_id\tdescription\tregex\tpos_examples\tneg_examples\r\n"
    row = 'b-1_t-cat_id-1\t"say ""x"", twice"\tstar(<x>)\tx  xx\tyy y\r\n'
    (tmp_path / "raw" / "dev.tsv").write_text(header + row + row, encoding="utf-8")
    (problem,) = load_structured_regex(tmp_path, "dev")
    assert problem.positives == ("x", "", "xx") and problem.negatives == ("yy", "y")
    assert problem.task.description == 'say "x", twice' and problem.task.dialect == "extended"
    assert problem.task.target == "x*"


def test_bad_files_are_named_errors(tmp_path: Path) -> None:
    with pytest.raises(DatasetNotFound):
        load_structured_regex(tmp_path, "dev")
    (tmp_path / "raw").mkdir()
    (tmp_path / "raw" / "dev.tsv").write_text(
        "problem_id\tdescription\tregex\tpos_examples\tneg_examples\nid\td\tfoo(<x>)\tx\ty\n"
    )
    with pytest.raises(MalformedDataset, match="row 2"):
        load_structured_regex(tmp_path, "dev")
