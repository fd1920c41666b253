"""`proactive models pull`: a capable local model (a GGUF from a short curated list) downloaded into the models
folder with huggingface_hub, the Hugging Face hub's own client.

The list holds a few instruction-tuned models that run on a laptop's CPU (Q4_K_M, 1-2.4 GB), each with its licence,
what it is good for, and the sha256 of its file. `pull` asks the hub for the file's metadata (one HEAD request),
checks the free space, downloads with huggingface_hub (its progress bar on stderr; a connection cut mid-file is
resumed with a Range request, up to 5 times while bytes keep coming) and checks the file's sha256: against the
list's, else against the hub's ETag, which for a file stored with Git LFS (every GGUF) is the sha256 of its bytes.
huggingface_hub itself only checks the size of what it downloads (and hashes a file only to skip downloading one
it already has), so the check is here. A file that fails it is deleted.

`HF_ENDPOINT` (a mirror) and `HF_HUB_OFFLINE` are read at each call, not when huggingface_hub was imported. Offline,
the file must already be in the folder or in the Hugging Face cache (`HF_HOME`). Every failure is a `PullError`
with a one-line message that says what to do. The folder is the caller's: the CLI passes the models folder, as
`proactive.models` imports no other package of ours.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import importlib
import os
import re
import shutil
import sys
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from .base import ModelError


class PullError(ModelError):
    """A model could not be pulled: an unknown name, offline and not here, the network, a bad checksum, no space.
    One-line message."""


@dataclass(frozen=True)
class CuratedModel:
    """One model of the list: where its file is on the hub, how big it is, its licence and what it is good for."""

    name: str  # the short id `models pull NAME` takes
    repo: str  # the hub repository ("owner/name")
    filename: str
    revision: str  # a branch, tag or commit; "main" with a sha256 below: a changed file is refused, not used
    size: int  # bytes of the published file (the hub's X-Linked-Size is used when the hub answers)
    sha256: str | None  # of the file's bytes; None: the hub's ETag is the reference
    licence: str
    purpose: str

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


#: Laptop-CPU models, smallest first. Sizes and sha256s are those of the files published at the time of writing
#: (Git LFS object ids, as the hub's X-Linked-Etag reports them); a file the hub changes since is refused.
CURATED: tuple[CuratedModel, ...] = (
    CuratedModel("smollm2-1.7b-instruct", "bartowski/SmolLM2-1.7B-Instruct-GGUF", "SmolLM2-1.7B-Instruct-Q4_K_M.gguf",
                 "main", 1_055_609_824, "77665ea4815999596525c636fbeb56ba8b080b46ae85efef4f0d986a139834d7",
                 "Apache-2.0", "the lightest: short explanations and drafts in English on a slow or small machine"),
    CuratedModel("qwen2.5-1.5b-instruct", "Qwen/Qwen2.5-1.5B-Instruct-GGUF", "qwen2.5-1.5b-instruct-q4_k_m.gguf",
                 "main", 1_117_320_736, "6a1a2eb6d15622bf3c96857206351ba97e1af16c30d7a74ee38970e434e9407e",
                 "Apache-2.0", "fast and sound: explanations of errors and code, drafts, summaries; many languages"),
    CuratedModel("llama-3.2-3b-instruct", "unsloth/Llama-3.2-3B-Instruct-GGUF", "Llama-3.2-3B-Instruct-Q4_K_M.gguf",
                 "main", 2_019_377_600, "6c99cc00ae910f6a532a80022cb4bc1939094527a089c29294b841c0bd87f74d",
                 "Llama 3.2 Community License", "better writing: drafts and summaries that read well; follows "
                 "instructions closely"),
    CuratedModel("phi-3.5-mini-instruct", "bartowski/Phi-3.5-mini-instruct-GGUF", "Phi-3.5-mini-instruct-Q4_K_M.gguf",
                 "main", 2_393_232_672, "e4165e3a71af97f1b4820da61079826d8752a2088e313af0c7d346796c38eff5",
                 "MIT", "the strongest reasoning here: code and error explanations, step-by-step answers; needs 4 GB "
                        "of memory"),
)

DEFAULT_ENDPOINT = "https://huggingface.co"
#: free space asked for beyond the file itself (the config, logs and database keep growing beside it)
SPACE_MARGIN = 100_000_000
#: an ETag that is a sha256: the hub's for a file stored with Git LFS (a small file's is its git blob id)
SHA256 = re.compile(r"[0-9a-f]{64}")
TRUE = {"1", "on", "yes", "true"}


def size_text(n: int) -> str:
    """Bytes in words: 1.1 GB, 262.2 KB."""
    for unit, scale in (("GB", 10 ** 9), ("MB", 10 ** 6), ("KB", 10 ** 3)):
        if n >= scale:
            return f"{n / scale:.1f} {unit}"
    return f"{n} B"


def find(name: str) -> CuratedModel:
    """The list's model of this name, or PullError listing the names."""
    for model in CURATED:
        if model.name == name:
            return model
    raise PullError(f"unknown model {name!r}: the list has {', '.join(m.name for m in CURATED)} "
                    "(`proactive models pull` describes them)")


def endpoint() -> str:
    """The hub to download from: HF_ENDPOINT (a mirror), else huggingface.co; read now, not at import."""
    return (os.environ.get("HF_ENDPOINT") or DEFAULT_ENDPOINT).rstrip("/")


def offline() -> bool:
    """HF_HUB_OFFLINE (read now), or offline mode as huggingface_hub read it at its import."""
    from huggingface_hub import constants

    return os.environ.get("HF_HUB_OFFLINE", "").strip().lower() in TRUE or constants.is_offline_mode()


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def pull(model: str | CuratedModel, dest_dir: Path, progress: bool = True) -> Path:
    """Download `model` (a name of the list, or an entry) into `dest_dir` and return the file's path. A file
    already there whose sha256 is the expected one is kept (nothing is downloaded), one that is not is replaced.
    Progress goes to stderr. Raises PullError (one line)."""
    entry = find(model) if isinstance(model, str) else model
    dest_dir = Path(dest_dir)
    target = dest_dir / entry.filename
    hub = endpoint()
    expected, size = entry.sha256, entry.size
    if offline():
        return _from_here(entry, dest_dir, expected)
    etag, hub_size = _metadata(entry, hub)
    size = hub_size or size
    if etag is not None and SHA256.fullmatch(etag):
        if expected is not None and etag != expected:
            raise PullError(f"{hub} now serves another {entry.filename} (sha256 {etag[:12]}...) than the one this "
                            f"version of Proactive lists ({expected[:12]}...): nothing was downloaded")
        expected = etag
    if target.is_file() and expected is not None:
        if sha256_file(target) == expected:
            return target
        _remove(dest_dir, entry.filename)  # damaged, or another version: downloaded again
    _check_space(dest_dir, size, entry)
    path = _download(entry, dest_dir, hub, progress)
    _verify(path, expected, entry, dest_dir, f"downloaded from {hub}")
    return path


def _metadata(entry: CuratedModel, hub: str) -> tuple[str | None, int | None]:
    """The hub's ETag (normalized: no quotes) and size for the file: one HEAD request."""
    from huggingface_hub import get_hf_file_metadata, hf_hub_url

    url = hf_hub_url(entry.repo, entry.filename, revision=entry.revision, endpoint=hub)
    try:
        meta = get_hf_file_metadata(url, endpoint=hub)
    except Exception as exc:
        raise _failure(exc, entry, hub) from exc
    return meta.etag, meta.size


def _download(entry: CuratedModel, dest_dir: Path, hub: str, progress: bool) -> Path:
    from huggingface_hub import hf_hub_download

    try:
        dest_dir.mkdir(parents=True, exist_ok=True)
        return Path(hf_hub_download(entry.repo, entry.filename, revision=entry.revision, local_dir=dest_dir,
                                    endpoint=hub, tqdm_class=_progress_bar(progress, entry.filename)))
    except Exception as exc:
        raise _failure(exc, entry, hub, dest_dir) from exc


def _from_here(entry: CuratedModel, dest_dir: Path, expected: str | None) -> Path:
    """Offline: the file in the folder, else copied from the Hugging Face cache, else PullError."""
    target = dest_dir / entry.filename
    if not target.is_file():
        from huggingface_hub import try_to_load_from_cache

        cached = try_to_load_from_cache(entry.repo, entry.filename, revision=entry.revision)
        if not isinstance(cached, str):
            raise PullError(f"offline (HF_HUB_OFFLINE is set) and {entry.filename} is neither in {dest_dir} nor in "
                            f"the Hugging Face cache: unset HF_HUB_OFFLINE to download it ({size_text(entry.size)})")
        _check_space(dest_dir, entry.size, entry)
        partial = target.with_name(target.name + ".copying")
        try:
            dest_dir.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(cached, partial)
            os.replace(partial, target)
        except OSError as exc:
            partial.unlink(missing_ok=True)
            raise PullError(f"cannot copy {entry.filename} from the Hugging Face cache to {dest_dir}: "
                            f"{exc.strerror or exc}") from exc
    _verify(target, expected, entry, dest_dir, "in the models folder")
    return target


def _verify(path: Path, expected: str | None, entry: CuratedModel, dest_dir: Path, where: str) -> None:
    if expected is None:
        return
    got = sha256_file(path)
    if got != expected:
        _remove(dest_dir, entry.filename)
        raise PullError(f"{entry.filename} {where} fails its checksum (sha256 {got[:12]}..., expected "
                        f"{expected[:12]}...): it was deleted; pull it again")


def _remove(dest_dir: Path, filename: str) -> None:
    """The file and huggingface_hub's record of it (which would let it skip a download of the same ETag)."""
    record = dest_dir / ".cache" / "huggingface" / "download"
    for path in (dest_dir / filename, record / f"{filename}.metadata", record / f"{filename}.lock"):
        with contextlib.suppress(OSError):
            path.unlink(missing_ok=True)


def _check_space(dest_dir: Path, size: int, entry: CuratedModel) -> None:
    folder = dest_dir
    while not folder.exists() and folder != folder.parent:  # the models folder is made by the download
        folder = folder.parent
    try:
        free = shutil.disk_usage(folder).free
    except OSError:
        return  # no answer: huggingface_hub's own check warns, and a full disk fails the write with ENOSPC
    needed = size + SPACE_MARGIN
    if free < needed:
        raise PullError(f"not enough free space in {dest_dir} for {entry.name}: it needs {size_text(needed)} "
                        f"({size_text(size)} and a margin), {size_text(free)} is free; free some space there")


def _progress_bar(show: bool, label: str) -> type[Any]:
    """tqdm on stderr, shown also when stderr is not a terminal (huggingface_hub's own bar hides itself there),
    labelled with the file's name (huggingface_hub's label is the download URL's end, or the CDN's file name)."""
    from tqdm import tqdm  # type: ignore[import-untyped]  # huggingface_hub's dependency, without type information

    class Progress(tqdm):  # type: ignore[misc]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            kwargs.setdefault("file", sys.stderr)
            kwargs.setdefault("mininterval", 0.5)
            kwargs["desc"] = label
            kwargs["disable"] = not show
            super().__init__(*args, **kwargs)

        def close(self) -> None:
            super().close()
            with contextlib.suppress(AttributeError, OSError, ValueError):
                self.fp.flush()  # the bar's last newline, before whatever is written next

    return Progress


def _transport_errors() -> tuple[type[BaseException], ...]:
    """The HTTP library's network errors (huggingface_hub 1.x uses httpx, 2.x httpx2): connect, read, timeout."""
    found: list[type[BaseException]] = []
    for name in ("httpx2", "httpx"):
        with contextlib.suppress(ImportError, AttributeError):
            found.append(importlib.import_module(name).TransportError)
    return tuple(found)


def _failure(exc: Exception, entry: CuratedModel, hub: str, dest_dir: Path | None = None) -> Exception:
    """huggingface_hub's error as one PullError line (anything else unchanged: a bug is not a network failure)."""
    from huggingface_hub import errors

    where = f"{entry.repo}/{entry.filename} at revision {entry.revision}"

    def network(why: BaseException | None) -> PullError:
        # advice for someone who wants the file: how to reach a hub, or how to bring the file in by hand
        folder = f" into {dest_dir}" if dest_dir is not None else " into the models folder (`proactive status`)"
        return PullError(f"cannot download {entry.filename} from {hub} (HF_ENDPOINT): {_first_line(why)}; to get it, "
                         "check that this machine reaches the hub (a proxy goes in HTTPS_PROXY) or set HF_ENDPOINT to "
                         f"a mirror it reaches, or download {hub.rstrip('/')}/{entry.repo}/resolve/{entry.revision}/"
                         f"{entry.filename} elsewhere, copy it{folder} and run `HF_HUB_OFFLINE=1 proactive models "
                         f"pull {entry.name}`")

    if isinstance(exc, errors.GatedRepoError):
        return PullError(f"{hub} asks you to accept the licence of {entry.repo} first: open its page, then log in "
                         "with `hf auth login`")
    if isinstance(exc, errors.RepositoryNotFoundError | errors.RevisionNotFoundError | errors.EntryNotFoundError):
        return PullError(f"{hub} has no {where}: is HF_ENDPOINT a Hugging Face hub or a mirror of it?")
    if isinstance(exc, errors.OfflineModeIsEnabled):
        return PullError(f"offline (HF_HUB_OFFLINE is set) and {entry.filename} is not here: unset HF_HUB_OFFLINE "
                         "to download it")
    if isinstance(exc, errors.FileMetadataError):
        return PullError(f"{hub} does not answer like a Hugging Face hub for {where} ({_first_line(exc)}): check "
                         "HF_ENDPOINT")
    if isinstance(exc, errors.HfHubHTTPError):
        status = exc.response.status_code if exc.response is not None else "an error"
        return PullError(f"{hub} (HF_ENDPOINT) answered HTTP {status} for {where}: try again later, or check "
                         "HF_ENDPOINT")
    if isinstance(exc, errors.LocalEntryNotFoundError):  # the hub did not answer, and nothing is cached
        return network(exc.__cause__ or exc)
    if isinstance(exc, OSError) and exc.errno == errno.ENOSPC:
        return PullError(f"no space left in {dest_dir or 'the models folder'} while downloading {entry.filename}: "
                         "free some space there and pull again")
    if isinstance(exc, OSError) and exc.filename is not None:  # the folder, not the network
        return PullError(f"cannot write {exc.filename}: {exc.strerror or exc}")
    if isinstance(exc, (OSError, *_transport_errors())):
        return network(exc)
    return exc


def _first_line(exc: BaseException | None) -> str:
    text = str(exc).strip() if exc is not None else ""
    return text.splitlines()[0] if text else type(exc).__name__ if exc is not None else "no answer"
