"""Train the corner-digit classifier and export ``models/digits.onnx`` (needs the train extra).

One command, deterministic for a given ``--seed``::

    pip install -e '.[train]'
    python -m vision.train.digits            # ~30 min on 2 CPU cores

Steps: cut crops from synthesiser renders (training styles only; cached under
``out/digit_cache``), train a small CNN with heavy on-the-fly augmentation (blur, noise,
contrast, gamma, colour inversion, resolution loss, shadows, partial occlusion; the crop
mis-registration and rotation errors are applied when cutting), measure it on renders of
the held-out styles, export to ONNX with the metadata :mod:`vision.classifier` reads, and
write the SHA-256 sidecar.
"""

from __future__ import annotations

import json
import math
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F  # noqa: N812 (the usual name)
from torch import nn

from vision.classifier import RAW_CLASSES, file_sha256
from vision.crops import CROP_SIDE, CROP_SIZE, CROP_VERSION, DIGIT_IN
from vision.train import digit_data as dd
from vision.train.options import parse_args


class Standardise(nn.Module):
    """Per-crop standardisation inside the graph: callers feed raw 0..255 pixels."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        m = x.mean(dim=(2, 3), keepdim=True)
        sd = ((x - m) ** 2).mean(dim=(2, 3), keepdim=True).sqrt()
        return (x - m) / (sd + 8.0)  # +8: a blank crop stays flat instead of amplifying noise


def _block(cin: int, cout: int) -> list[nn.Module]:
    return [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU()]


def make_net(width: float = 1.0) -> nn.Sequential:
    """The CNN: 32x32 grey -> 13 logits; 49k parameters at ``width`` 1, ~4x per doubling.

    ``width`` scales every layer's channels (rounded to multiples of 4).
    """
    c = [max(4, 4 * round(k * width / 4)) for k in (8, 16, 32, 64)]
    return nn.Sequential(
        Standardise(),
        *_block(1, c[0]), nn.MaxPool2d(2),              # 16x16
        *_block(c[0], c[1]), *_block(c[1], c[1]), nn.MaxPool2d(2),  # 8x8
        *_block(c[1], c[2]), *_block(c[2], c[2]), nn.MaxPool2d(2),  # 4x4
        *_block(c[2], c[3]),
        nn.Flatten(), nn.Dropout(0.2), nn.Linear(c[3] * 16, len(RAW_CLASSES)),
    )


def _blur(x: torch.Tensor, sigma: torch.Tensor) -> torch.Tensor:
    """Gaussian blur of each crop with its own sigma (px), via a per-sample 7-tap kernel."""
    r = torch.arange(-3, 4, dtype=x.dtype)
    k = torch.exp(-(r[None, :] ** 2) / (2 * sigma[:, None].clamp(min=1e-3) ** 2))
    k = k / k.sum(dim=1, keepdim=True)
    n = x.shape[0]
    xp = F.pad(x, (3, 3, 3, 3), mode="replicate").reshape(1, n, x.shape[2] + 6, x.shape[3] + 6)
    y = F.conv2d(xp, k.reshape(n, 1, 1, 7), groups=n)
    y = F.conv2d(y, k.reshape(n, 1, 7, 1), groups=n)
    return y.reshape_as(x)


def augment(x: torch.Tensor, g: torch.Generator) -> torch.Tensor:
    """Heavy photometric augmentation of a (B, 1, S, S) batch of 0..255 crops."""
    b, _, s, _ = x.shape

    def u(lo: float = 0.0, hi: float = 1.0) -> torch.Tensor:
        return lo + (hi - lo) * torch.rand(b, generator=g)

    def p(prob: float) -> torch.Tensor:
        return torch.rand(b, generator=g) < prob

    x = x / 255.0
    # Resolution loss: down to 25-80 % then back up (small tiles, defocus, JPEG mush).
    m = p(0.3)
    if m.any():
        f = float(u(0.25, 0.8)[0])
        sm = max(6, int(round(s * f)))
        lo = F.interpolate(x[m], size=(sm, sm), mode="area")
        x[m] = F.interpolate(lo, size=(s, s), mode="bilinear", align_corners=False)
    m = p(0.4)
    if m.any():
        x[m] = _blur(x[m], u(0.3, 1.4)[m])
    # Gamma, contrast, brightness.
    x = x.clamp(0, 1) ** torch.exp(u(-0.5, 0.5))[:, None, None, None]
    mean = x.mean(dim=(2, 3), keepdim=True)
    x = (x - mean) * u(0.35, 1.4)[:, None, None, None] + mean + u(-0.2, 0.2)[:, None, None, None]
    # Shadow edge: darken a random half-plane.
    m = p(0.2)
    if m.any():
        yy, xx = torch.meshgrid(torch.arange(s, dtype=x.dtype), torch.arange(s, dtype=x.dtype),
                                indexing="ij")
        a = u(0, 2 * math.pi)[:, None, None]
        off = u(-0.4, 0.4)[:, None, None] * s
        half = ((xx - s / 2) * torch.cos(a) + (yy - s / 2) * torch.sin(a) > off).to(x.dtype)
        dark = 1 - u(0.1, 0.5)[:, None, None] * half
        x = torch.where(m[:, None, None, None], x * dark[:, None], x)
    # Partial occlusion: a rectangle of flat colour over up to ~20 % of the crop, off-centre.
    m = p(0.15)
    if m.any():
        for i in torch.nonzero(m).flatten().tolist():
            hw = int(torch.randint(4, s // 2, (1,), generator=g))
            hh = int(torch.randint(3, s // 3, (1,), generator=g))
            side = int(torch.randint(0, 4, (1,), generator=g))  # which border it enters from
            if side == 0:
                y0, x0 = 0, int(torch.randint(0, s - hw, (1,), generator=g))
            elif side == 1:
                y0, x0 = s - hh, int(torch.randint(0, s - hw, (1,), generator=g))
            elif side == 2:
                y0, x0 = int(torch.randint(0, s - hh, (1,), generator=g)), 0
                hw, hh = hh, hw
            else:
                y0, x0 = int(torch.randint(0, s - hh, (1,), generator=g)), s - hh
                hw, hh = hh, hw
            x[i, :, y0:y0 + hh, x0:x0 + hw] = float(torch.rand(1, generator=g))
    # Polarity inversion (light digits on dark tiles exist: onyx sets).
    m = p(0.08)
    x = torch.where(m[:, None, None, None], 1 - x, x)
    # Sensor noise.
    x = x + torch.randn(x.shape, generator=g) * (u(0, 0.06) * p(0.6))[:, None, None, None]
    return (x.clamp(0, 1) * 255.0)


def evaluate(net: nn.Module, x: np.ndarray, y: np.ndarray) -> tuple[float, np.ndarray]:
    """Accuracy over the 7 output classes (digit, none) and the 13x13 raw confusion matrix."""
    net.eval()
    preds = []
    with torch.no_grad():
        for i in range(0, len(x), 2048):
            xb = torch.from_numpy(x[i:i + 2048]).float()[:, None]
            preds.append(net(xb).argmax(dim=1).numpy())
    pred = np.concatenate(preds)
    cm = np.zeros((13, 13), np.int64)
    np.add.at(cm, (y, pred), 1)
    return float(np.mean(collapse(pred) == collapse(y))), cm


def collapse(raw: np.ndarray) -> np.ndarray:
    """Raw class (0-12) -> output class (digit 0-5, none 6)."""
    raw = np.asarray(raw)
    return np.where(raw == 12, 6, raw % 6)


def export(net: nn.Module, path: Path, meta: dict[str, Any]) -> str:
    """Write the ONNX model with ``meta`` in its metadata_props and its .sha256 sidecar."""
    import onnx

    net.eval()
    tmp = path.with_suffix(".tmp.onnx")
    torch.onnx.export(net, torch.zeros(2, 1, CROP_SIZE, CROP_SIZE), str(tmp),
                      input_names=["crops"], output_names=["logits"],
                      dynamic_axes={"crops": {0: "n"}, "logits": {0: "n"}},
                      opset_version=17, dynamo=False)
    model = onnx.load(str(tmp))
    tmp.unlink()
    del model.metadata_props[:]
    for k, v in meta.items():
        p = model.metadata_props.add()
        p.key, p.value = k, json.dumps(v)
    model.producer_name = "triominos vision.train.digits"
    onnx.checker.check_model(model)
    onnx.save(model, str(path))
    sha = file_sha256(path)
    path.with_name(path.name + ".sha256").write_text(f"{sha}  {path.name}\n", encoding="utf-8")
    return sha


def main(argv: list[str] | None = None) -> None:
    """Command line: build data, train, evaluate on held-out styles, export."""
    # (options checked before any work: a bad combination is refused at once)
    args = parse_args(argv, __doc__.splitlines()[0])

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    t0 = time.time()
    print(f"building crops ({args.train_renders} training renders)...", flush=True)
    xtr, ytr, _ = dd.build("train", args.train_renders, jitter=dd.TRAIN_JITTER,
                        copies=args.copies, seed=args.seed, workers=args.workers,
                        hands=args.hands, hidden=args.hidden)
    if args.hard:
        print(f"building crops ({args.hard} hard renders)...", flush=True)
        xh, yh, _ = dd.build("train", args.hard, jitter=dd.TRAIN_JITTER, copies=args.copies,
                             seed=args.seed, workers=args.workers, hands=args.hands,
                             hidden=args.hidden, hard=True)
        xtr, ytr = np.concatenate([xtr, xh]), np.concatenate([ytr, yh])
    xva, yva, _ = dd.build("val", args.val_renders, jitter=dd.NO_JITTER, seed=args.seed,
                        workers=args.workers, hands=args.hands, hidden=args.hidden)
    t_data = time.time() - t0
    print(f"  {len(xtr)} training crops, {len(xva)} held-out crops, {t_data:.0f} s", flush=True)
    print("  train class counts:", np.bincount(ytr, minlength=13).tolist(), flush=True)

    g = torch.Generator().manual_seed(args.seed)
    net = make_net(args.width)
    n_params = sum(p.numel() for p in net.parameters())
    steps = args.epochs * math.ceil(len(xtr) / args.batch)
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=steps,
                                                pct_start=0.15)
    # Inverse-sqrt class weights: the outward-printed digits are rarer in the renders.
    counts = np.bincount(ytr, minlength=13).astype(np.float64)
    wts = torch.tensor((counts.max() / np.maximum(counts, 1)) ** 0.5, dtype=torch.float32)
    loss_fn = nn.CrossEntropyLoss(weight=wts, label_smoothing=0.03)
    xt = torch.from_numpy(xtr)
    yt = torch.from_numpy(ytr)
    t1 = time.time()
    for ep in range(args.epochs):
        net.train()
        perm = torch.randperm(len(xt), generator=g)
        tot, n = 0.0, 0
        for i in range(0, len(perm), args.batch):
            idx = perm[i:i + args.batch]
            xb = augment(xt[idx].float()[:, None], g)
            loss = loss_fn(net(xb), yt[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            tot += loss.item() * len(idx)
            n += len(idx)
        acc, _ = evaluate(net, xva, yva)
        print(f"epoch {ep + 1}/{args.epochs}: loss {tot / n:.4f}, held-out acc {acc:.5f}, "
              f"{time.time() - t1:.0f} s", flush=True)
    t_train = time.time() - t1
    acc, cm = evaluate(net, xva, yva)
    meta = {
        "name": "triominos corner-digit classifier",
        "raw_classes": list(RAW_CLASSES),
        "classes": ["0", "1", "2", "3", "4", "5", "none"],
        "class_note": "raw classes: d = digit top toward tile centre (upright in crop), "
                      "dr = top toward corner (upside down), none; marginalise over "
                      "convention for the digit",
        "input_size": CROP_SIZE,
        "input": "crops (N,1,32,32) float32 grey 0..255 from vision.crops.corner_crops",
        "normalisation": "in graph: per-crop (x-mean)/(std+8)",
        "crop_version": CROP_VERSION,
        "crop_geometry": {"digit_in": DIGIT_IN, "crop_side": CROP_SIDE},
        "training_data": {
            "source": "vision.synth renders {}x{}, styles restricted".format(*dd.RENDER_SIZE),
            "holdout": dd.HOLDOUT, "train_renders": args.train_renders,
            "hard_renders": args.hard, "hard_style": dd.HARD_STYLE if args.hard else None,
            "train_crops": int(len(xtr)), "copies": args.copies,
            "train_jitter": dd.TRAIN_JITTER.__dict__, "hands": args.hands,
            "hidden": args.hidden if args.hands else None,
            "synth_source_sha256_16": dd._synth_fingerprint(),
        },
        "seed": args.seed,
        "epochs": args.epochs,
        "width": args.width,
        "params": int(n_params),
        "val_accuracy": round(acc, 6),
        "val_crops": int(len(xva)),
        "val_description": "renders of held-out font and held-out edition, exact corners",
        "train_seconds": round(t_train + t_data),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    sha = export(net, args.out, meta)
    print(f"held-out accuracy {acc:.5f} on {len(xva)} crops; {n_params} parameters; "
          f"data {t_data:.0f} s + training {t_train:.0f} s", flush=True)
    print("confusion (rows true raw class, cols predicted):")
    print(cm)
    print(f"wrote {args.out} ({args.out.stat().st_size} bytes, sha256 {sha[:16]}...)")


if __name__ == "__main__":
    main()
