"""dama.cluster on a LocalCluster of two worker processes (issue 36).

- Tables: all 3-piece dama tables and the 4-piece kings-only slices around
  KK v K (KK v KK, KKK v K) built by Dask tasks, one per slice, are byte for
  byte the single-process build; a build stopped half-way resumes; a worker
  killed in the middle of a task loses only that task.
- Matches: 200 games over two workers are exactly the games of
  ``dama match --threads 1`` with the same seed; an SPRT stops the workers.
- Self-play: the chunks of ``dama tune``'s self-play give the same games on
  the workers as here.
"""

import hashlib
import json
import os
import pathlib
import subprocess

import pytest

import dama
import dama.cluster as cluster
from dama import _dama

import distributed  # the `cluster` extra; .ci/run installs it

ROOT = pathlib.Path(__file__).resolve().parents[3]
FOUR_PIECE_KINGS = ["KK v KK", "KKK v K"]


def tables(folder):
    """{file name: bytes} of the .egtb files under folder."""
    return {p.name: p.read_bytes() for p in sorted(pathlib.Path(folder).rglob("*.egtb"))}


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """The single-process build: 3 pieces, then the 4-piece kings-only slices."""
    folder = tmp_path_factory.mktemp("single")
    rules = dama.Rules.builtin("dama")
    _dama.egtb_build(rules, str(folder), pieces=3, threads=2)
    for m in FOUR_PIECE_KINGS:
        _dama.egtb_build(rules, str(folder), material=m, threads=2)
    return tables(folder)


def local_cluster():
    return distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        dashboard_address=":0",
        silence_logs=50,
    )


@pytest.fixture(scope="module")
def client():
    with local_cluster() as c, distributed.Client(c) as cl:
        yield cl


def test_the_plan_orders_every_slice_after_what_it_leads_to():
    rules = dama.Rules.builtin("dama")
    plan = _dama.egtb_plan(rules, pieces=3)
    assert len(plan) == 34
    seen = set()
    for material, file_name, deps in plan:
        assert file_name.endswith(".egtb")
        assert all(d in seen for d in deps), material
        seen.add(material)
    kk_k = _dama.egtb_plan(rules, material="KK v K")
    assert [m for m, _, _ in kk_k] == ["- v K", "K v -", "K v K", "KK v -", "KK v K"]
    with pytest.raises(ValueError):
        _dama.egtb_plan(rules, material="KX v K")


def test_tables_built_on_two_workers_are_the_single_process_build(client, tmp_path, reference):
    store = tmp_path / "store"
    first = cluster.build_tables("dama", 3, client, store)
    assert len(first.built) == 34 and first.skipped == []
    for m in FOUR_PIECE_KINGS:
        more = cluster.build_tables("dama", client=client, store=store, material=m)
        # The 3-piece slices are in the store already: not built again.
        assert len(more.skipped) >= 1 and m in more.built
    assert tables(store) == reference
    # Every table has its checksum beside it, and it is the file's.
    for path in pathlib.Path(store).rglob("*.egtb"):
        digest = (path.parent / (path.name + ".sha256")).read_text().split()[0]
        assert digest == hashlib.sha256(path.read_bytes()).hexdigest(), path.name
    # Nothing is left under a temporary name.
    assert not [p for p in pathlib.Path(store).rglob("*") if ".tmp" in p.name]


def test_a_stopped_build_resumes_where_it_stopped(client, tmp_path, reference):
    store = tmp_path / "store"
    cluster.build_tables("dama", 2, client, store)
    # A table whose checksum disagrees (a damaged copy) is built again.
    folder = store / _dama.egtb_folder(dama.Rules.builtin("dama"))
    damaged = folder / "m0k1-m0k1.egtb.sha256"
    damaged.write_text("0" * 64 + "  m0k1-m0k1.egtb\n")
    summary = cluster.build_tables("dama", 3, client, store)
    assert "K v K" in summary.built
    assert len(summary.skipped) == len(_dama.egtb_plan(dama.Rules.builtin("dama"), pieces=2)) - 1
    three = {k: v for k, v in reference.items() if k in tables(store)}
    assert tables(store) == three


def test_a_killed_worker_loses_only_its_task(tmp_path, reference, monkeypatch):
    marks = tmp_path / "marks"
    marks.mkdir()
    # The worker that builds K v KK kills itself before publishing it.
    monkeypatch.setenv("DAMA_CLUSTER_KILL", str(marks / "m0k1-m0k2.egtb"))
    store = tmp_path / "store"
    with local_cluster() as c, distributed.Client(c) as cl:
        summary = cluster.build_tables("dama", 3, cl, store)
    assert (marks / "m0k1-m0k2.egtb.killed").exists(), "no worker was killed"
    assert len(summary.built) == 34
    want = {k: v for k, v in reference.items() if k in tables(store)}
    assert len(want) == 34 and tables(store) == want


def test_a_store_url_goes_through_fsspec(tmp_path, reference):
    url = "memory://dama-egtb-test"
    summary = cluster.build_tables("dama", 2, None, url)
    import fsspec

    fs = fsspec.filesystem("memory")
    folder = f"/dama-egtb-test/{_dama.egtb_folder(dama.Rules.builtin('dama'))}"
    got = {p.rsplit("/", 1)[1]: fs.cat_file(p) for p in fs.ls(folder, detail=False) if p.endswith(".egtb")}
    assert len(got) == len(summary.slices)
    assert got == {k: v for k, v in reference.items() if k in got}
    again = cluster.build_tables("dama", 2, None, url)
    assert again.built == [] and len(again.skipped) == len(summary.slices)


def cli():
    for candidate in [os.environ.get("DAMA_CLI"), ROOT / "target/release/dama", ROOT / "target/debug/dama"]:
        if candidate and pathlib.Path(candidate).is_file():
            return str(candidate)
    pytest.fail("no dama binary: run `cargo build -p dama-cli` or set DAMA_CLI")


def test_a_match_on_two_workers_is_dama_match_on_one_thread(client, tmp_path):
    pdn = tmp_path / "match.pdn"
    args = ["match", "dama", "--games", "200", "--threads", "1", "--seed", "7", "--depth", "2", "--black-depth", "1"]
    args += ["--max-plies", "80", "--pdn", str(pdn), "--format", "json"]
    run = subprocess.run([cli(), *args], capture_output=True, text=True, timeout=1200)
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    rules = dama.Rules.builtin("dama")
    want = dama.read_pdn(pdn.read_text(), rules)
    assert len(want) == 200
    got = cluster.play_match(
        "dama", 200, client, white={"kind": "engine", "depth": 2}, black={"depth": 1}, seed=7, max_plies=80
    )
    assert got.played == 200
    assert [g.moves for g in got.games] == [g.moves for g in want]
    assert [g.result for g in got.games] == [g.result for g in want]
    for key in ("wins", "draws", "losses", "white_wins", "black_wins"):
        assert report[key] == got.report[key], (key, report[key], got.report[key])
    for key in ("score", "average_plies"):
        assert abs(report[key] - got.report[key]) < 1e-9, key
    # Here, without a cluster: the same games again.
    here = cluster.play_match("dama", 20, None, white={"depth": 2}, black={"depth": 1}, seed=7, max_plies=80)
    assert [g.moves for g in here.games] == [g.moves for g in want[:20]]


def test_an_sprt_stops_every_worker_when_it_decides(client):
    kw = dict(white={"kind": "engine", "depth": 1}, black="random", seed=3, max_plies=120, sprt=(0.0, 100.0))
    spread = cluster.play_match("dama", 400, client, **kw)
    here = cluster.play_match("dama", 400, None, **kw)
    assert spread.report["sprt"]["decision"] != "inconclusive"
    assert spread.played < 400
    assert spread.played == here.played
    assert [g.moves for g in spread.games] == [g.moves for g in here.games]


def test_self_play_on_workers_is_the_same_games(client):
    kw = dict(nodes=300, openings=4, seed=2, max_plies=60)
    spread = cluster.self_play("dama", 25, client, **kw)
    here = cluster.self_play("dama", 25, None, **kw)
    assert len(spread) == 25
    assert [g.moves for g in spread] == [g.moves for g in here]
    assert all(g.is_over for g in spread)


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError):
        cluster.build_tables("dama", None, None, "x")
    with pytest.raises(ValueError):
        cluster.play_match("dama", 2, None, white={"kind": "engine", "colour": 1})
    with pytest.raises(ValueError):
        cluster.play_match("dama", 2, None, white={"kind": "oracle"})
    with pytest.raises(FileNotFoundError):
        _dama.egtb_build(dama.Rules.builtin("dama"), "/nonexistent-dama-dir", material="KK v K", only=True)
