# Shortcuts for ./kt (which needs no make): `make run`, `make test`, ...
KT_COMMANDS := run test test-postgres setup i18n-extract i18n-update i18n-compile

.PHONY: $(KT_COMMANDS)
$(KT_COMMANDS):
	./kt $@

# Benchmarks (not tests): engine, server under load (SQLite and PostgreSQL), browser;
# writes docs/performance.md and bench/results.json. About 25 minutes (10, 100 and 300 tables; 100 tables run three times), 20 with --tables 10,100. From a clean
# clone: ./kt setup-browser makes the venv (with the test tools) and installs Chromium for
# the browser part, then the bench extra on top.
.PHONY: bench
bench:
	./kt setup-browser
	.venv/bin/python -m pip install --quiet --disable-pip-version-check -e '.[test,bench]'
	KT_RATELIMIT_ENABLED=false .venv/bin/python -m bench

# The night-long soak (not a test): 50 tables for an hour on the default server, with a
# graceful restart and a kill; writes bench/soak.json (docs/reliability.md, section 8).
# `make soak SOAK_MINUTES=3` to try it.
SOAK_MINUTES ?= 60
.PHONY: soak
soak:
	./kt setup
	.venv/bin/python -m bench.soak --minutes $(SOAK_MINUTES)
