"""dama.cluster: endgame tables and self-play spread over a Dask cluster.

The work is already cut into independent pieces: one endgame-table slice
(a material balance) per task, built by the same code as
``dama egtb build VARIANT --material M --only``; one pair of games of a match
per task, with the seeds ``dama match`` gives them; one chunk of ``dama tune``'s
self-play per task. Dask (``dask.distributed``) schedules them, so the same
code runs on a laptop (``LocalCluster``), on Kubernetes (dask-kubernetes) and on
batch systems (dask-jobqueue: Slurm, PBS, SGE).

Install with the extra: ``pip install dama-draughts[cluster]`` (dask.distributed
and fsspec). Every function also runs without a cluster (``client=None``): in
this process, one piece after another, with the same results.

>>> import dama, dama.cluster
>>> from dask.distributed import Client, LocalCluster     # doctest: +SKIP
>>> client = Client(LocalCluster(n_workers=2))            # doctest: +SKIP
>>> dama.cluster.build_tables("dama", 3, client, "/shared/egtb")   # doctest: +SKIP

See docs/python.md ("On a cluster") and docs/scale.md.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
import uuid
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from . import _dama
from ._dama import Game, Rules

__all__ = [
    "BuildSummary",
    "MatchResult",
    "build_tables",
    "play_match",
    "self_play",
]

#: The suffix of the checksum written beside each table file.
CHECKSUM_SUFFIX = ".sha256"

VariantLike = Union[str, Rules]


def _rules(variant: VariantLike) -> Rules:
    if isinstance(variant, Rules):
        return variant
    if not isinstance(variant, str):
        raise TypeError(f"a variant is a Rules or a built-in name or .toml path, not {type(variant).__name__}")
    if variant.endswith(".toml") or os.sep in variant:
        return Rules.from_file(variant)
    return Rules.builtin(variant)


def _distributed():
    try:
        import distributed  # noqa: F401
    except ImportError as e:  # pragma: no cover - depends on the installation
        raise ImportError(
            "dama.cluster needs dask.distributed for a client: pip install 'dama-draughts[cluster]'"
        ) from e
    return distributed


# ---------------------------------------------------------------- the store


class _Store:
    """A folder of tables: a local path, or any fsspec URL (s3://, gs://, ...).

    Files are written under a temporary name and moved into place, with a
    SHA-256 of their bytes beside them (``NAME.sha256``) written last: a table
    whose checksum file is there and agrees is complete.
    """

    def __init__(self, store: Union[str, os.PathLike]):
        text = os.fspath(store)
        self.url = text
        if "://" in text and not text.startswith("file://"):
            try:
                import fsspec
            except ImportError as e:  # pragma: no cover
                raise ImportError("a store URL needs fsspec: pip install 'dama-draughts[cluster]'") from e
            self.fs, self.root = fsspec.core.url_to_fs(text)
            self.local = None
        else:
            path = text[len("file://") :] if text.startswith("file://") else text
            self.fs = None
            self.root = os.path.abspath(path)
            self.local = self.root

    def __reduce__(self):
        return (_Store, (self.url,))

    def path(self, *parts: str) -> str:
        if self.fs is None:
            return os.path.join(self.root, *parts)
        return "/".join([self.root.rstrip("/"), *parts])

    def exists(self, path: str) -> bool:
        return os.path.exists(path) if self.fs is None else self.fs.exists(path)

    def read_text(self, path: str) -> str:
        if self.fs is None:
            with open(path, encoding="utf-8") as f:
                return f.read()
        with self.fs.open(path, "r", encoding="utf-8") as f:
            return f.read()

    def makedirs(self, path: str) -> None:
        if self.fs is None:
            os.makedirs(path, exist_ok=True)
        else:
            self.fs.makedirs(path, exist_ok=True)

    def put(self, local_file: str, path: str) -> None:
        """Copies a local file to ``path`` atomically (a temporary name, then a move)."""
        tmp = f"{path}.tmp-{uuid.uuid4().hex}"
        if self.fs is None:
            if os.path.abspath(local_file) == os.path.abspath(path):
                return
            shutil.copyfile(local_file, tmp)
            os.replace(tmp, path)
        else:
            self.fs.put_file(local_file, tmp)
            self.fs.mv(tmp, path)

    def put_text(self, text: str, path: str) -> None:
        tmp = f"{path}.tmp-{uuid.uuid4().hex}"
        if self.fs is None:
            with open(tmp, "w", encoding="utf-8") as f:
                f.write(text)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, path)
        else:
            with self.fs.open(tmp, "w", encoding="utf-8") as f:
                f.write(text)
            self.fs.mv(tmp, path)

    def get(self, path: str, local_file: str) -> None:
        if self.fs is None:
            shutil.copyfile(path, local_file)
        else:
            self.fs.get_file(path, local_file)

    def sha256(self, path: str) -> str:
        h = hashlib.sha256()
        opener = open(path, "rb") if self.fs is None else self.fs.open(path, "rb")
        with opener as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
        return h.hexdigest()

    def complete(self, path: str, verify: bool) -> Optional[str]:
        """The checksum of a complete table at ``path``, or None."""
        sidecar = path + CHECKSUM_SUFFIX
        if not (self.exists(path) and self.exists(sidecar)):
            return None
        words = self.read_text(sidecar).split()
        want = words[0] if words else ""
        if not verify:
            return want or None
        return want if want and self.sha256(path) == want else None


# ---------------------------------------------------------------- tables


@dataclass
class BuildSummary:
    """What ``build_tables`` did: the slices in build order, which were built
    now and which were complete in the store already, and each file's SHA-256."""

    variant: str
    folder: str
    slices: List[str]
    built: List[str] = field(default_factory=list)
    skipped: List[str] = field(default_factory=list)
    checksums: Dict[str, str] = field(default_factory=dict)


def _crash_hook(file_name: str) -> None:
    """Test hook: ``DAMA_CLUSTER_KILL=DIR/NAME`` kills the worker process the
    first time it has built slice NAME, before it is published (a marker
    file DIR/NAME.killed makes it once). Used by the test that kills a worker
    mid-build; does nothing otherwise."""
    spec = os.environ.get("DAMA_CLUSTER_KILL")
    if not spec:
        return
    folder, _, name = spec.rpartition(os.sep)
    if name != file_name:
        return
    marker = os.path.join(folder, name + ".killed")
    try:
        fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        return
    os.close(fd)
    os.kill(os.getpid(), 9)


def _build_slice(
    rules: Rules,
    store: _Store,
    material: str,
    file_name: str,
    dependencies: Sequence[Tuple[str, str]],
    threads: int,
    max_memory_mib: Optional[int],
    *_after: Any,
) -> Tuple[str, str]:
    """One task: the table of ``material``, from the tables it leads to.

    On a local (shared) folder the engine reads and writes the store itself;
    elsewhere the dependencies are copied to a scratch folder first. Either
    way the table is published atomically, then its checksum. ``_after``
    holds the dependencies' results, so Dask runs this after them."""
    sub = _dama.egtb_folder(rules)
    target = store.path(sub, file_name)
    if store.local is not None:
        store.makedirs(store.path(sub))
        _dama.egtb_build(rules, store.local, material=material, only=True, threads=threads, max_memory_mib=max_memory_mib)
        built = target
        _crash_hook(file_name)
        digest = store.sha256(built)
        store.put_text(f"{digest}  {file_name}\n", target + CHECKSUM_SUFFIX)
        return material, digest
    with tempfile.TemporaryDirectory(prefix="dama-egtb-") as scratch:
        os.makedirs(os.path.join(scratch, sub))
        for _, dep_file in dependencies:
            store.get(store.path(sub, dep_file), os.path.join(scratch, sub, dep_file))
        _dama.egtb_build(rules, scratch, material=material, only=True, threads=threads, max_memory_mib=max_memory_mib)
        built = os.path.join(scratch, sub, file_name)
        _crash_hook(file_name)
        h = hashlib.sha256()
        with open(built, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
        digest = h.hexdigest()
        store.makedirs(store.path(sub))
        store.put(built, target)
        store.put_text(f"{digest}  {file_name}\n", target + CHECKSUM_SUFFIX)
    return material, digest


def build_tables(
    variant: VariantLike,
    pieces: Optional[int] = None,
    client: Any = None,
    store: Union[str, os.PathLike] = "egtb",
    *,
    material: Optional[str] = None,
    retries: int = 3,
    threads: int = 1,
    max_memory_mib: Optional[int] = None,
    verify: bool = True,
) -> BuildSummary:
    """Builds every endgame table of ``variant`` up to ``pieces`` pieces (or those
    of ``material`` and what it leads to) into ``store``, one Dask task per
    material slice.

    - **Graph.** A slice's task depends on the tasks of the slices its captures
      and promotions lead to; the Dask dashboard shows it (keys
      ``egtb-<variant>-<file>``).
    - **Store.** A local or shared folder, or an fsspec URL (an object store):
      the layout of ``dama egtb build --dir`` (``STORE/<variant>/m1k0-m0k1.egtb``),
      each file with a ``.sha256`` beside it.
    - **Resume.** A slice whose table and checksum are in the store (and agree,
      with ``verify``) is not built again: a stopped build goes on where it
      stopped.
    - **Failures.** A task that fails or whose worker dies is run again, up to
      ``retries`` times; only that task is lost. A slice built twice is the same
      file, byte for byte.

    ``threads`` is the threads each task builds with; ``client=None`` builds
    here, one slice after another, with the same files.
    """
    rules = _rules(variant)
    if (pieces is None) == (material is None):
        raise ValueError("give pieces or material, one of them")
    st = store if isinstance(store, _Store) else _Store(store)
    plan = _dama.egtb_plan(rules, pieces=pieces, material=material)
    sub = _dama.egtb_folder(rules)
    files = {m: f for m, f, _ in plan}
    summary = BuildSummary(variant=rules.id, folder=st.path(sub), slices=[m for m, _, _ in plan])
    st.makedirs(st.path(sub))
    done: Dict[str, str] = {}
    for m, f, _ in plan:
        digest = st.complete(st.path(sub, f), verify)
        if digest is not None:
            done[m] = digest
    summary.skipped = [m for m in summary.slices if m in done]
    todo = [(m, f, deps) for m, f, deps in plan if m not in done]
    if client is None:
        for m, f, deps in todo:
            _, digest = _build_slice(rules, st, m, f, [(d, files[d]) for d in deps], threads, max_memory_mib)
            done[m] = digest
            summary.built.append(m)
    else:
        _distributed()
        futures: Dict[str, Any] = {}
        token = uuid.uuid4().hex[:8]
        for m, f, deps in todo:
            after = [futures[d] for d in deps if d in futures]
            futures[m] = client.submit(
                _build_slice,
                rules,
                st,
                m,
                f,
                [(d, files[d]) for d in deps],
                threads,
                max_memory_mib,
                *after,
                key=f"egtb-{sub}-{f}-{token}",
                retries=retries,
                pure=False,
            )
        for m, future in futures.items():
            _, digest = future.result()
            done[m] = digest
            summary.built.append(m)
    summary.checksums = {files[m]: done[m] for m in summary.slices}
    return summary


# ---------------------------------------------------------------- matches


@dataclass
class MatchResult:
    """A match's games (``dama.Game``, in index order, ended as the match
    ended them) and its report: ``played``, ``wins``/``draws``/``losses`` (for
    player A), ``score``, ``elo`` with ``elo_low``/``elo_high`` and ``los``, and
    ``sprt`` (None, or ``llr``, ``lower``, ``upper``, ``decision``)."""

    games: List[Game]
    report: Dict[str, Any]

    @property
    def played(self) -> int:
        return int(self.report["played"])


def _player(p: Union[None, str, Dict[str, Any]], default: str) -> Dict[str, Any]:
    if p is None:
        return {"kind": default}
    if isinstance(p, str):
        return {"kind": p}
    if isinstance(p, dict):
        return dict(p)
    raise TypeError("a player is 'engine', 'random' or a dict such as {'kind': 'engine', 'level': 5}")


def _play_games(rules, white, black, work, seed, max_plies, stop_name):
    """One task: games ``work`` ([(index, opening)]) of a match, in order;
    with ``stop_name``, the games not begun when the match's test has decided
    are left out."""
    out = []
    stop = None
    if stop_name is not None:
        from distributed import Event

        stop = Event(stop_name)
    for g, opening in work:
        if stop is not None and stop.is_set():
            break
        out.extend(_dama.match_games(rules, white, black, [g], [opening], seed=seed, max_plies=max_plies))
    return out


def play_match(
    variant: VariantLike,
    games: int,
    client: Any = None,
    *,
    white: Union[None, str, Dict[str, Any]] = None,
    black: Union[None, str, Dict[str, Any]] = None,
    seed: int = 1,
    openings: Union[int, Sequence[Game]] = 2,
    max_plies: int = 300,
    sprt: Optional[Tuple[float, float]] = None,
    alpha: float = 0.05,
    beta: float = 0.05,
    start: Optional[str] = None,
    pairs_per_task: int = 1,
) -> MatchResult:
    """Plays a match as ``dama match`` plays it, its games spread over the
    workers: the same games, in the same order, with the same report, for any
    number of workers (``dama match --threads 1`` with the same seed).

    ``white``/``black``: player A and player B (A has White in the first game
    of every pair), ``"engine"``, ``"random"`` or ``{"kind": "engine", "level":
    5, "depth": 4, "nodes": 20000}``; by default the engine against the random
    mover. ``openings``: random plies at the start of each pair, or a list of
    games (``read_pdn``) whose moves open the pairs in turn. ``sprt=(elo0,
    elo1)``: the sequential test of ``dama match --sprt``; when it decides, the
    games not begun are cancelled on every worker.
    """
    rules = _rules(variant)
    if games < 1:
        raise ValueError("a match has at least one game")
    if pairs_per_task < 1:
        raise ValueError("pairs_per_task is at least 1")
    w, b = _player(white, "engine"), _player(black, "random")
    if isinstance(openings, int):
        table = _dama.match_openings(rules, (games + 1) // 2, seed=seed, opening_plies=openings, start=start)
    else:
        table = _dama.match_openings(rules, (games + 1) // 2, seed=seed, start=start, openings=list(openings))
    collector = _dama.MatchCollector(
        rules, w, b, games, seed=seed, max_plies=max_plies, sprt=sprt, alpha=alpha, beta=beta
    )
    per_task = 2 * pairs_per_task
    batches = [
        [(g, table[g // 2]) for g in range(first, min(first + per_task, games))]
        for first in range(0, games, per_task)
    ]
    if client is None:
        for work in batches:
            if collector.decided:
                break
            for record in _play_games(rules, w, b, work, seed, max_plies, None):
                collector.add(record)
        return MatchResult(games=collector.games, report=collector.report(1))
    distributed = _distributed()
    stop_name = f"dama-match-stop-{uuid.uuid4().hex}" if sprt is not None else None
    stop = distributed.Event(stop_name, client=client) if stop_name else None
    futures = [
        client.submit(_play_games, rules, w, b, work, seed, max_plies, stop_name, pure=False, key=f"match-{work[0][0]}-{uuid.uuid4().hex[:8]}")
        for work in batches
    ]
    try:
        for future in distributed.as_completed(futures):
            for record in future.result():
                collector.add(record)
            if collector.decided:
                if stop is not None:
                    stop.set()
                client.cancel([f for f in futures if not f.done()])
                break
    finally:
        if stop is not None:
            stop.set()
    workers = len(client.scheduler_info().get("workers", {})) or 1
    return MatchResult(games=collector.games, report=collector.report(workers))


def _self_play_chunk(rules, chunk, games, nodes, openings, seed, max_plies):
    return _dama.self_play_games(
        rules, chunk, games, nodes=nodes, openings=openings, seed=seed, max_plies=max_plies
    )


def self_play(
    variant: VariantLike,
    games: int,
    client: Any = None,
    *,
    nodes: int = 2000,
    openings: int = 8,
    seed: int = 1,
    max_plies: int = 300,
) -> List[Game]:
    """The self-play games ``dama tune`` learns from (the same games for the
    same ``games``, ``nodes``, ``openings``, ``seed`` and ``max_plies``), one
    task per chunk of ten, in order. Write them with ``Game.to_pdn`` and tune
    on them with ``dama tune VARIANT --games 0 --positions games.pdn``."""
    rules = _rules(variant)
    if games < 1:
        raise ValueError("games is at least 1")
    chunks = range((games + 9) // 10)
    if client is None:
        records = [r for c in chunks for r in _self_play_chunk(rules, c, games, nodes, openings, seed, max_plies)]
    else:
        _distributed()
        futures = [
            client.submit(_self_play_chunk, rules, c, games, nodes, openings, seed, max_plies, pure=False)
            for c in chunks
        ]
        records = [r for f in futures for r in f.result()]
    return [_dama.record_game(rules, r, max_plies=max_plies) for r in records]
