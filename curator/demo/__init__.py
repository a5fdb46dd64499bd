"""The demo: the bundled sample repository copied for the user (`sample_copy`), given a git history
(`repository`) and four Claude Code sessions (`transcripts`) so review, drift, growth, sessions and verification
have something to show. Opened by discovery when no store is found."""
