# Shortcuts for ./kt (which needs no make): `make run`, `make test`, ...
KT_COMMANDS := run test test-postgres setup i18n-extract i18n-update i18n-compile

.PHONY: $(KT_COMMANDS)
$(KT_COMMANDS):
	./kt $@
