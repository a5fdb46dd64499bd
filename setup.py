# The sample store and the themes live at the top of the repository, where people look for them,
# and ship inside the package as curator/_sample_memories and curator/_themes so that `curator`
# works after a plain (non-editable) install. pyproject.toml cannot map folders like this alone.
from setuptools import find_packages, setup

setup(
    packages=find_packages(include=["curator", "curator.*"])
    + ["curator._sample_memories", "curator._themes"],
    package_dir={"curator._sample_memories": "sample_memories", "curator._themes": "themes"},
)
