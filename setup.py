# The sample repository and the themes live at the top of the repository, where people look for
# them, and ship inside the package as curator/_sample_memories and curator/_themes so that
# `curator` works after a plain (non-editable) install. pyproject.toml cannot map folders like
# this alone. Its globs skip hidden folders (.serena/, .claude/), so the sample's files are listed
# here one by one; its folders with importable names are declared (as namespace packages) so
# pip does not warn that they "would be ignored".
import os

from setuptools import find_namespace_packages, find_packages, setup

SAMPLE = ["curator._sample_memories"] + [
    f"curator._sample_memories.{name}" for name in find_namespace_packages(where="sample_memories")
]


def files_below(folder: str) -> list[str]:
    out = []
    for dirpath, _dirs, names in os.walk(folder):
        for name in names:
            out.append(os.path.relpath(os.path.join(dirpath, name), folder))
    return sorted(out)


setup(
    packages=find_packages(include=["curator", "curator.*"]) + SAMPLE + ["curator._themes"],
    package_dir={"curator._sample_memories": "sample_memories", "curator._themes": "themes"},
    package_data={
        "curator": ["*.tcss", "**/*.tcss"],
        "curator._themes": ["*.yaml"],
        "curator.retrieval": ["data/*.txt", "data/*.npy"],
        "curator.bench.golden": ["*.yaml", "*.md"],
        "curator._sample_memories": files_below("sample_memories"),
    },
)
