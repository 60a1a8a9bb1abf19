"""The switch of a staged folder (cardforge/transaction.py, issue 31): one atomic step, files
kept from the old folder carried over, what a kill leaves recovered, readers never see a mix."""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

import pytest

from cardforge import transaction
from cardforge.transaction import leftovers, recover, switch


def make(folder: Path, files: dict[str, str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def tree(folder: Path) -> dict[str, str]:
    out = {}
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder).as_posix()
        if path.is_symlink():
            out[rel] = "-> " + os.readlink(path)
        elif path.is_file():
            out[rel] = path.read_text(encoding="utf-8")
    return out


@pytest.fixture(params=[True, False], ids=["exchange", "two-renames"])
def exchange(request, monkeypatch):
    monkeypatch.setattr(transaction, "USE_EXCHANGE", request.param)
    return request.param


def test_switch_carries_over_what_it_does_not_replace(tmp_path, exchange):
    target = make(tmp_path / "game", {"deck.pdf": "old", "deck-backs.pdf": "old", "notes.txt": "mine",
                                      "png/a.png": "exported", ".deck.pdf.x.part": "half"})
    (target / "link").symlink_to("notes.txt")
    os.chmod(target, 0o750)
    staging = transaction.new_staging(tmp_path, "game")
    make(staging, {"deck.pdf": "new", "manifest.json": "new"})
    inode = (target / "notes.txt").stat().st_ino
    switch(staging, target, ["deck-backs.pdf"])
    assert tree(target) == {"deck.pdf": "new", "manifest.json": "new", "notes.txt": "mine",
                            "png/a.png": "exported", "link": "-> notes.txt"}
    assert (target / "notes.txt").stat().st_ino == inode  # a hard link: never copied
    assert stat.S_IMODE(target.stat().st_mode) == 0o750  # the folder keeps its own mode
    assert leftovers(tmp_path, "game") == []


def test_switch_into_nothing_is_one_rename_with_the_umask_mode(tmp_path):
    staging = transaction.new_staging(tmp_path, "game")  # mkdtemp: 0o700
    make(staging, {"deck.pdf": "new"})
    old = os.umask(0o027)
    try:
        switch(staging, tmp_path / "game")
    finally:
        os.umask(old)
    from cardforge import paths

    assert tree(tmp_path / "game") == {"deck.pdf": "new"}
    assert stat.S_IMODE((tmp_path / "game").stat().st_mode) == 0o777 & ~paths.umask()


def test_a_fifo_in_the_folder_makes_a_file_by_file_switch(tmp_path):
    target = make(tmp_path / "out", {"a.png": "old", "b.png": "old"})
    os.mkfifo(target / "pipe")
    staging = transaction.new_staging(tmp_path, "out")
    make(staging, {"a.png": "new"})
    switch(staging, target)
    assert tree(target) == {"a.png": "new", "b.png": "old"}
    assert stat.S_ISFIFO(os.lstat(target / "pipe").st_mode)  # left as it was, never opened


@pytest.mark.parametrize("calls", [1, 2, 3], ids=["staging-ready", "target-old", "ready-target"])
def test_a_kill_in_the_two_rename_fallback_is_recovered(tmp_path, monkeypatch, calls):
    """Without RENAME_EXCHANGE: staging → .ready (complete), target → .old, .ready → target. A
    kill after any of them is recovered to one build, whole: the old before the new is ready,
    the new once it is."""
    monkeypatch.setattr(transaction, "USE_EXCHANGE", False)
    target = make(tmp_path / "game", {"deck.pdf": "old", "aids.pdf": "old"})
    staging = transaction.new_staging(tmp_path, "game")
    make(staging, {"deck.pdf": "new"})
    real, done = os.rename, []

    def rename(a, b):
        if len(done) == calls:
            raise SystemExit("killed")  # what a SIGKILL leaves: nothing after this
        done.append((a, b))
        real(a, b)

    monkeypatch.setattr(os, "rename", rename)
    with pytest.raises(SystemExit):
        switch(staging, target)
    monkeypatch.setattr(os, "rename", real)
    recover(tmp_path, "game")
    # before the old folder moved aside, it stays; after, the new one (complete: .ready) goes in
    expected = {"deck.pdf": "old", "aids.pdf": "old"} if calls == 1 else {"deck.pdf": "new", "aids.pdf": "old"}
    assert tree(target) == expected
    assert leftovers(tmp_path, "game") == []


def test_a_kill_after_the_exchange_leaves_the_new_folder(tmp_path, monkeypatch):
    target = make(tmp_path / "game", {"deck.pdf": "old"})
    staging = transaction.new_staging(tmp_path, "game")
    make(staging, {"deck.pdf": "new"})
    monkeypatch.setattr(transaction.shutil, "rmtree", lambda *a, **k: (_ for _ in ()).throw(SystemExit("killed")))
    with pytest.raises(SystemExit):
        switch(staging, target)
    monkeypatch.undo()
    assert tree(target) == {"deck.pdf": "new"}
    assert tree(staging) == {"deck.pdf": "old"}  # the old folder, where the staging folder was
    recover(tmp_path, "game")
    assert tree(target) == {"deck.pdf": "new"} and leftovers(tmp_path, "game") == []


def read_at(folder_fd: int, name: str) -> bytes:
    fd = os.open(name, os.O_RDONLY, dir_fd=folder_fd)
    try:
        return os.read(fd, 16)
    finally:
        os.close(fd)


def test_a_reader_holding_the_folder_never_sees_a_mix(tmp_path):
    """A reader opens the folder, then its two files (as a PDF viewer opening a build would);
    a file-by-file switch showed it one old file and one new at times."""
    target = make(tmp_path / "game", {"a": "0", "b": "0"})
    stop = threading.Event()
    mixes: list[tuple[str, str]] = []
    seen: set[str] = set()

    def reader() -> None:
        while not stop.is_set():
            try:
                fd = os.open(target, os.O_RDONLY)
            except FileNotFoundError:
                continue
            try:
                a, b = (read_at(fd, name) for name in ("a", "b"))
            except FileNotFoundError:
                continue
            finally:
                os.close(fd)
            seen.add(a.decode())
            if a != b:
                mixes.append((a.decode(), b.decode()))

    thread = threading.Thread(target=reader)
    thread.start()
    try:
        for i in range(1, 300):
            staging = transaction.new_staging(tmp_path, "game")
            make(staging, {"a": str(i), "b": str(i)})
            switch(staging, target)
            if os.path.exists(staging):
                import shutil

                shutil.rmtree(staging)
    finally:
        stop.set()
        thread.join()
    assert mixes == [] and len(seen) > 1


def test_a_file_by_file_switch_merges_folders_and_checks_first(tmp_path):
    """The fallback (a FIFO in the folder): a subfolder is merged, never replaced whole; what
    cannot be replaced is found before anything is."""
    target = make(tmp_path / "out", {"sub/mine.txt": "mine", "sub/cards.csv": "old", "x.png": "old"})
    os.mkfifo(target / "pipe")
    staging = transaction.new_staging(tmp_path, "out")
    make(staging, {"sub/cards.csv": "new", "x.png": "new"})
    switch(staging, target)
    assert tree(target) == {"sub/mine.txt": "mine", "sub/cards.csv": "new", "x.png": "new"}
    (target / "y.png").mkdir()
    staging = transaction.new_staging(tmp_path, "out")
    make(staging, {"x.png": "newer", "y.png": "new"})
    from cardforge.errors import OutputError

    with pytest.raises(OutputError, match="a folder is there, where a file goes"):
        switch(staging, target)
    assert tree(target)["x.png"] == "new"  # nothing replaced
