"""A real, throwaway PostgreSQL server for the play-log tests (issue 44): a cluster made by
``initdb`` in a temporary folder and started by ``pg_ctl`` on a free port of 127.0.0.1, once per
test process; each test gets a database of its own. Fixtures (a plug-in of the root conftest.py):
``pg_cluster``, ``pg_url`` (an empty database), ``log_db`` (a test run on SQLite and on
PostgreSQL) and ``new_log_db`` (another log on the same database). Run as root, the server runs as the user
``postgres`` (PostgreSQL refuses root) in a folder it owns. Skipped, saying why, only when no
PostgreSQL server binary is installed (``.ci/run`` installs Debian's ``postgresql``)."""

from __future__ import annotations

import glob
import itertools
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from waiting import wait_until


def server_bin() -> Path | None:
    """The folder of initdb and pg_ctl: on PATH, else Debian's /usr/lib/postgresql/<n>/bin."""
    found = shutil.which("pg_ctl")
    if found and shutil.which("initdb"):
        return Path(found).parent
    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda f: int(f.split("/")[-2]), reverse=True):
        if os.access(Path(folder) / "initdb", os.X_OK) and os.access(Path(folder) / "pg_ctl", os.X_OK):
            return Path(folder)
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _as_server_user(argv: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *argv] if os.geteuid() == 0 else argv


class Cluster:
    def __init__(self, bin_dir: Path):
        self.bin = bin_dir
        self.root = Path(tempfile.mkdtemp(prefix="cardforge-pg-"))
        self.data = self.root / "data"
        self.port = _free_port()
        self.names = itertools.count(1)
        if os.geteuid() == 0:
            import pwd

            user = pwd.getpwnam("postgres")
            os.chown(self.root, user.pw_uid, user.pw_gid)
        self.root.chmod(0o700)

    def _run(self, *argv: str) -> None:
        done = subprocess.run(_as_server_user([str(self.bin / argv[0]), *argv[1:]]), capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"{argv[0]} failed ({done.returncode}): {done.stderr.strip() or done.stdout.strip()}")

    def start(self) -> None:
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "--encoding=UTF8",
                  "--no-locale", "--no-sync")
        options = f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100"
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.root / "log"), "-o", options, "-w", "-t", "60",
                  "start")
        wait_until(self._accepts, "the test PostgreSQL server accepting connections")

    def _accepts(self) -> bool:
        import psycopg

        try:
            with psycopg.connect(self.url("postgres"), connect_timeout=5):
                return True
        except psycopg.OperationalError:
            return False

    def url(self, database: str) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A fresh, empty database's URL."""
        import psycopg

        name = f"log{next(self.names)}"
        with psycopg.connect(self.url("postgres"), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def stop(self) -> None:
        try:
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster]:
    bin_dir = server_bin()
    if bin_dir is None:
        pytest.skip("no PostgreSQL server binary (initdb, pg_ctl): apt-get install postgresql")
    cluster = Cluster(bin_dir)
    try:
        cluster.start()
    except BaseException:
        cluster.stop()
        raise
    yield cluster
    cluster.stop()


@pytest.fixture
def pg_url(pg_cluster: Cluster) -> str:
    """The URL of an empty PostgreSQL database for this test."""
    return pg_cluster.new_database()


@pytest.fixture(params=["sqlite", "postgresql"])
def log_db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A new play log, once on each database: an SQLite file's path, then a PostgreSQL URL."""
    if request.param == "sqlite":
        return str(tmp_path / "plays.db")
    return str(request.getfixturevalue("pg_cluster").new_database())


@pytest.fixture
def new_log_db(log_db: str, tmp_path: Path, request: pytest.FixtureRequest) -> Callable[[], str]:
    """More new play logs on the database of ``log_db``: ``new_log_db()``."""
    names = itertools.count(1)

    def make() -> str:
        if log_db.startswith("postgresql://"):
            return str(request.getfixturevalue("pg_cluster").new_database())
        return str(tmp_path / f"log{next(names)}" / "plays.db")
    return make
