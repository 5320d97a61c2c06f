"""The type stubs describe the module as it is: every function and class they name exists,
and every public function and class of the module is in them."""

import re
from pathlib import Path

import broadside
from broadside import _broadside

STUBS = Path(broadside.__file__).with_name("_broadside.pyi").read_text()


def test_the_stubs_name_what_the_module_has():
    named = set(re.findall(r"^(?:def|class) (\w+)", STUBS, re.M))
    public = {n for n in dir(_broadside) if not n.startswith("_")}
    assert named - public == set(), "in the stubs, not in the module"
    assert public - named == set(), "in the module, not in the stubs"
