# The sample store and the themes live at the top of the repository, where people look for them,
# and ship inside the package as curator/_sample_memories and curator/_themes so that `curator`
# works after a plain (non-editable) install. pyproject.toml cannot map folders like this alone.
# Every folder of the sample store is declared (as a namespace package) so that its files are
# package data, not "packages that would be ignored".
from setuptools import find_namespace_packages, find_packages, setup

SAMPLE = ["curator._sample_memories"] + [
    f"curator._sample_memories.{name}" for name in find_namespace_packages(where="sample_memories")
]

setup(
    packages=find_packages(include=["curator", "curator.*"]) + SAMPLE + ["curator._themes"],
    package_dir={"curator._sample_memories": "sample_memories", "curator._themes": "themes"},
)
