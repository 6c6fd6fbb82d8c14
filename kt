#!/usr/bin/env bash
# Kartentisch's commands. From a clean clone:
#   ./kt run     set up (venv, packages, translations) and serve on the LAN
#   ./kt test    set up (plus Debian's Chromium) and run every test
# More: ./kt help
set -euo pipefail
cd "$(dirname "$0")"

VENV=.venv
PY="$VENV/bin/python"
INSTALLED_STAMP="$VENV/.kartentisch-installed"
CHROMIUM=/usr/bin/chromium
TLS_DIR=instance/tls

say() { printf '\n==> %s\n' "$*"; }
die() { printf 'kt: %s\n' "$*" >&2; exit 1; }

find_python() {
    local candidate
    for candidate in ${PYTHON:-} python3.11 python3.12 python3.13 python3; do
        if command -v "$candidate" >/dev/null \
            && "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
            echo "$candidate"
            return
        fi
    done
    die "Python 3.11 or newer is needed (Debian: apt-get install -y python3 python3-venv)"
}

setup() {
    if [[ ! -x $PY ]]; then
        local python
        python=$(find_python)
        say "Creating the virtual environment $VENV with $python"
        "$python" -m venv "$VENV" || die "could not create $VENV (Debian: apt-get install -y python3-venv)"
    fi
    if [[ ! -f $INSTALLED_STAMP || pyproject.toml -nt $INSTALLED_STAMP ]]; then
        say "Installing Kartentisch with its test tools: pip install -e '.[test]'"
        "$PY" -m pip install --quiet --disable-pip-version-check -e '.[test]'
        touch "$INSTALLED_STAMP"
    fi
    i18n_compile
}

i18n_compile() {
    say "Compiling the translations (translations/*/LC_MESSAGES/messages.mo)"
    "$VENV/bin/pybabel" compile --statistics -d translations
}

i18n_extract() {
    say "Extracting the German message ids into translations/messages.pot"
    "$VENV/bin/pybabel" extract --mapping-file babel.cfg --no-location --sort-output \
        --project Kartentisch --copyright-holder "Kartentisch" \
        --output-file translations/messages.pot .
}

i18n_update() {
    i18n_extract
    say "Merging them into translations/en/LC_MESSAGES/messages.po (new ones are empty or fuzzy)"
    "$VENV/bin/pybabel" update --ignore-obsolete --input-file translations/messages.pot \
        --output-dir translations --locale en
}

ensure_chromium() {
    if [[ -x $CHROMIUM ]]; then
        echo "Chromium for the browser tests: $CHROMIUM is there (apt-get skipped)"
        return
    fi
    local sudo=()
    if [[ $(id -u) -ne 0 ]]; then
        command -v sudo >/dev/null || die "$CHROMIUM is missing; as root run: apt-get update && apt-get install -y chromium"
        sudo=(sudo)
    fi
    say "Installing Debian's Chromium for the browser tests: apt-get update && apt-get install -y chromium"
    # Wait (up to 10 min) rather than fail if another apt/dpkg holds the lock.
    "${sudo[@]}" apt-get -o DPkg::Lock::Timeout=600 update
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y chromium
}

# pytest, where "no tests collected" (exit code 5) is said aloud and counts as a failure.
run_pytest() {
    local status=0
    "$PY" -m pytest "$@" || status=$?
    if ((status == 5)); then
        echo "kt: pytest collected no tests (pytest $*): that is a failure, not a pass" >&2
        return 1
    fi
    return "$status"
}

make_certificate() {
    if [[ -f $TLS_DIR/cert.pem && -f $TLS_DIR/key.pem ]]; then
        return
    fi
    command -v openssl >/dev/null || die "openssl is needed for --https (Debian: apt-get install -y openssl)"
    local lan_ips
    lan_ips=$("$PY" -c 'from webapp.hosting import lan_addresses; print(",".join("IP:" + a for a in lan_addresses()))')
    say "Making a self-signed certificate in $TLS_DIR (localhost, 127.0.0.1${lan_ips:+, ${lan_ips//IP:/}})"
    mkdir -p "$TLS_DIR"
    openssl req -x509 -newkey rsa:2048 -nodes -days 825 -subj "/CN=Kartentisch" \
        -addext "subjectAltName=DNS:localhost,IP:127.0.0.1${lan_ips:+,$lan_ips}" \
        -keyout "$TLS_DIR/key.pem" -out "$TLS_DIR/cert.pem" 2>/dev/null
    chmod 600 "$TLS_DIR/key.pem"
}

cmd_run() {
    setup
    if [[ ${1:-} == --https ]]; then
        shift
        make_certificate
        set -- --certfile "$TLS_DIR/cert.pem" --keyfile "$TLS_DIR/key.pem" "$@"
    fi
    say "Starting Kartentisch (stop with Ctrl+C)"
    exec "$PY" -m webapp "$@"
}

cmd_test() {
    setup
    ensure_chromium
    say "Running every test: pytest -n 2 tests $*"
    run_pytest -n 2 tests "$@"
}

cmd_screenshots() {
    setup
    ensure_chromium
    say "Taking the screenshots into docs/screenshots/ (the browser tests with KT_SCREENSHOTS set)"
    KT_SCREENSHOTS=docs/screenshots run_pytest -n 2 tests/e2e "$@"
}

cmd_test_postgres() {
    setup
    ensure_chromium
    # What ./kt test already ran in full, again at half its count (the fuzz inputs, the
    # SIGKILLs); the browser tests of how pages look draw the same HTML on any database.
    say "Running the web tests on PostgreSQL (a throwaway database each) served by gunicorn -w 2"
    KT_TEST_DB=postgres KT_TEST_SERVER=gunicorn KT_REQUIRE_POSTGRES=1 \
        KT_FUZZ_SCALE="${KT_FUZZ_SCALE:-0.5}" KT_CRASH_KILLS="${KT_CRASH_KILLS:-50}" \
        run_pytest -n 2 tests --ignore=tests/engine -m "not presentation" "$@"
}

cmd_backup() {
    setup >/dev/null
    "$PY" scripts/backup.py backup "$@"
}

cmd_restore() {
    [[ $# -eq 1 ]] || die "usage: ./kt restore FILE (stop the server first)"
    setup >/dev/null
    "$PY" scripts/backup.py restore "$1"
}

usage() {
    cat <<'EOF'
Usage: ./kt COMMAND [ARGS]

  run [--https] [ARGS]  set up and serve on the LAN (port $PORT, default 8000);
                        ARGS go to `python -m webapp` (--workers, --threads, --host);
                        --https serves with a self-signed certificate (instance/tls/)
  test [ARGS]           set up, install Chromium if missing, run every test
                        (pytest -n 2 tests ARGS)
  test-postgres [ARGS]  the web tests again on PostgreSQL ($KT_TEST_POSTGRES_URL,
                        default postgresql://postgres@127.0.0.1:5432/postgres) + gunicorn;
                        fuzz inputs and SIGKILLs at half the count, the browser
                        tests of how pages look (marked presentation) left out
  screenshots [ARGS]    the browser tests, writing their screenshots to docs/screenshots/
                        (./kt test takes them too, but writes nothing)
  backup [FILE]         a consistent copy of the database while the server runs
                        (default: instance/backups/kartentisch-<time>.sqlite3|.pgdump)
  restore FILE          replace the database by a backup (stop the server first;
                        what was there is kept as instance/backups/before-restore-…)
  setup                 only set up (.venv, packages, compiled translations)
  setup-browser         set up and install Chromium if missing (for `make bench`)
  i18n-extract          German message ids -> translations/messages.pot
  i18n-update           extract, then merge into translations/en/LC_MESSAGES/messages.po
  i18n-compile          .po -> .mo (run and test do this)
EOF
}

command=${1:-help}
shift || true
case $command in
    run) cmd_run "$@" ;;
    test) cmd_test "$@" ;;
    test-postgres) cmd_test_postgres "$@" ;;
    screenshots) cmd_screenshots "$@" ;;
    backup) cmd_backup "$@" ;;
    restore) cmd_restore "$@" ;;
    setup) setup ;;
    setup-browser) setup && ensure_chromium ;;
    i18n-extract) setup && i18n_extract ;;
    i18n-update) setup && i18n_update ;;
    i18n-compile) setup ;;
    help | -h | --help) usage ;;
    *) usage >&2; die "unknown command: $command" ;;
esac
