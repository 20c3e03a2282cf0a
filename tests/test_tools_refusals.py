"""Every command in tools/ answers bad input (a missing file, a corrupt record, a bad option) with
one line on stderr and a non-zero exit, and writes nothing: each case runs the tool as a process."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TOOLS = ROOT / "tools"
# A puzzle that reads but whose moves do not replay (z9 is off a Y 4 board).
UNPLAYABLE = json.dumps({"id": "x", "game": "omny", "options": {"variant": "y", "size": 4}, "moves": ["z9"], "solution": ["a1"]})


def run_tool(tool: str, *args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(TOOLS / tool), *map(str, args)], cwd=cwd, capture_output=True, text=True, timeout=300
    )


def assert_refused(result: subprocess.CompletedProcess[str], tool: str, *words: str) -> None:
    """Refused in one line that names the tool and says what was wrong, with no traceback."""
    assert result.returncode == 2, result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f"{tool}: "), lines[0]
    for word in words:
        assert word in lines[0], lines[0]


def digest(*paths: Path) -> list[str]:
    """What the files hold now (a missing one as None), to show a refused run changed nothing."""
    return [hashlib.sha256(path.read_bytes()).hexdigest() if path.exists() else "missing" for path in paths]


@pytest.fixture
def files(tmp_path: Path) -> Path:
    """A folder with a puzzle file to leave alone, a corrupt one, an empty folder and a bad saved game."""
    (tmp_path / "kept.jsonl").write_text(UNPLAYABLE + "\n", encoding="utf-8")
    (tmp_path / "corrupt.jsonl").write_text(UNPLAYABLE + "\n{not json\n", encoding="utf-8")
    (tmp_path / "unplayable.jsonl").write_text(UNPLAYABLE + "\n", encoding="utf-8")
    (tmp_path / "empty").mkdir()
    (tmp_path / "saved" / "games").mkdir(parents=True)
    (tmp_path / "saved" / "games" / "0001.json").write_text('{"game": "omny"}', encoding="utf-8")
    (tmp_path / "a-file").write_text("not a folder", encoding="utf-8")
    return tmp_path


MERGE = [
    (["/nonexistent"], ["/nonexistent", "No such file"]),
    (["corrupt.jsonl"], ["corrupt.jsonl, line 2", "not JSON"]),
    (["unplayable.jsonl", "/nonexistent"], ["/nonexistent"]),  # the second file missing: nothing proven, nothing written
    (["unplayable.jsonl"], ["no puzzle left", "left as it was"]),  # every puzzle left out: the file is not emptied
    (["unplayable.jsonl", "--mate-share", "1"], ["--mate-share", "'1'"]),
    (["unplayable.jsonl", "--mate-share", "half"], ["--mate-share", "'half'"]),
    (["unplayable.jsonl", "--out", "no-folder/out.jsonl"], ["no-folder is not a folder"]),
    (["unplayable.jsonl", "--out", "empty"], ["empty is a folder"]),
    ([], ["required: files"]),
]


@pytest.mark.parametrize(("args", "words"), MERGE)
def test_merge_puzzles_refuses(files: Path, args: list[str], words: list[str]) -> None:
    out = files / "kept.jsonl"
    before = digest(out)
    result = run_tool("merge_puzzles.py", *args, *([] if "--out" in args else ["--out", out]), cwd=files)
    assert_refused(result, "merge_puzzles.py", *words)
    assert digest(out) == before


MAKE = [
    (["omny", "notjson"], ["options", "not JSON"]),
    (["omny", "[]"], ["options", "not a JSON object"]),
    (["omny", '{"size": 99}'], ["size=99", "at most 30"]),
    (["omny", '{"bogus": 1}'], ["no option 'bogus'"]),
    (["chess", "{}"], ["invalid choice: 'chess'"]),
    (["omny", "{}", "--level", "11"], ["--level", "'11'", "from 1 to 10"]),
    (["omny", "{}", "--games", "0"], ["--games", "'0'"]),
    (["omny", "{}", "--limit", "-1"], ["--limit", "'-1'"]),
    (["omny", "{}", "--records", "/nonexistent"], ["/nonexistent is not a folder of saved games"]),
    (["omny", "{}", "--records", "empty"], ["empty holds no saved games"]),
    (["omny", "{}", "--records", "saved"], ["0001.json", "not an ogames record"]),
    (["omny", "{}", "--folder", "a-file"], ["a-file is a file"]),
    (["omny", "{}", "--out", "corrupt.jsonl"], ["corrupt.jsonl, line 2"]),
    (["omny", "{}", "--out", "unplayable.jsonl"], ["unplayable.jsonl: puzzle x does not replay", "z9"]),
]


@pytest.mark.parametrize(("args", "words"), MAKE)
def test_make_puzzles_refuses_before_playing_or_writing(files: Path, args: list[str], words: list[str]) -> None:
    out = files / "new.jsonl"  # made by the first puzzle found
    watched = [out, files / "corrupt.jsonl", files / "unplayable.jsonl", files / "a-file"]
    before = digest(*watched)
    result = run_tool("make_puzzles.py", *args, *([] if "--out" in args else ["--out", out]), cwd=files)
    assert_refused(result, "make_puzzles.py", *words)
    assert digest(*watched) == before
    assert list((files / "empty").iterdir()) == []


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--only", "Y 99"], ["--only", "invalid choice: 'Y 99'"]),
        (["--games", "0"], ["--games", "'0'"]),
        (["--budget", "many"], ["--budget", "'many'"]),
        (["--spec", "nosuch:player"], ["nosuch"]),
        (["--out", "no-folder/book.json"], ["no-folder is not a folder"]),
    ],
)
def test_make_book_refuses_before_playing(files: Path, args: list[str], words: list[str]) -> None:
    book = ROOT / "src" / "ogames" / "teach" / "data" / "book.json"
    before = digest(book)
    assert_refused(run_tool("make_book.py", *args, cwd=files), "make_book.py", *words)
    assert digest(book) == before
    assert not (files / "no-folder").exists()


def test_solve_openings_refuses_a_board_it_does_not_know(files: Path) -> None:
    page, results = ROOT / "docs" / "solved.md", ROOT / "benchmarks" / "results" / "solved-openings.json"
    before = digest(page), digest(results)
    assert_refused(run_tool("solve_openings.py", "--only", "Y 99", cwd=files), "solve_openings.py", "no board titled 'Y 99'")
    assert (digest(page), digest(results)) == before


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["gallery", "--only", "omny-y,chess"], ["no showcase named 'chess'", "omny-gyre"]),
        (["a-file"], ["a-file is a file"]),
        (["gallery", "--width", "0"], ["--width", "'0'"]),
    ],
)
def test_svg_gallery_refuses(files: Path, args: list[str], words: list[str]) -> None:
    assert_refused(run_tool("svg_gallery.py", *args, cwd=files), "svg_gallery.py", *words)
    assert not (files / "gallery").exists()
    assert (files / "a-file").read_text(encoding="utf-8") == "not a folder"


@pytest.mark.parametrize(
    ("tool", "args", "words"),
    [
        ("zen_report.py", ["many"], ["games", "'many'"]),
        ("zen_report.py", ["0"], ["games", "'0'"]),
        ("zen_report.py", ["10", "no-folder/zen.md"], ["no-folder is not a folder"]),
        ("zen_survey.py", ["many"], ["'many'"]),
        ("zen_survey.py", ["-1"], ["'-1'"]),
        ("zen_survey.py", ["5", "6"], ["unrecognized arguments: 6"]),
    ],
)
def test_zen_tools_refuse(files: Path, tool: str, args: list[str], words: list[str]) -> None:
    assert_refused(run_tool(tool, *args, cwd=files), tool, *words)
    assert not (files / "no-folder").exists()


@pytest.mark.parametrize(
    ("tool", "writes"),
    [
        ("sync_rules.py", ROOT / "src" / "ogames" / "web" / "rulebook" / "omny.md"),
        ("ai_settings.py", ROOT / "docs" / "ai-settings.md"),
        ("make_golden.py", min((ROOT / "tests" / "golden").glob("*.json"))),
        ("warm_kernels.py", None),
    ],
)
def test_tools_without_options_refuse_a_stray_one(files: Path, tool: str, writes: Path | None) -> None:
    """A tool that takes no options is not run by a mistyped one (it would rewrite its files)."""
    before = writes.stat().st_mtime_ns if writes else None
    assert_refused(run_tool(tool, "--check", cwd=files), tool, "unrecognized arguments: --check")
    assert (writes.stat().st_mtime_ns if writes else None) == before
