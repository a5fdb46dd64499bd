"""The ground floor: what every part of curator stands on, importing nothing of curator outside
itself — config, trust boundaries, safe reads, user folders, token counting, the store cache, one
runner of git, path containment and the repository roots, and kept runs."""
