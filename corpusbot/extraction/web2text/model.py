"""The ``web2text`` mode: learned block scores and the best labelling of the block sequence.

Web2Text (Vogels, Ganea, Eickhoff, ECIR 2018, "Web2Text: Deep Structured
Boilerplate Removal") labels every block of a page as content or
boilerplate in three steps, followed here one function each:

1. features of each block from the block and its DOM context
   (``corpusbot.extraction.web2text.features``);
2. a *unary* model giving each block its probability of being content, and a
   *pairwise* model giving each pair of neighbouring blocks the probability
   of each of the four label pairs (section 3.3);
3. the labelling that maximises ``sum log p_unary + PAIRWISE_WEIGHT * sum
   log p_pairwise`` over the sequence, found by Viterbi decoding (the
   paper's hidden-Markov-like inference, section 3.4).

The paper's two models are convolutional networks over the block sequence;
here the neighbourhood comes from the features instead (the previous and
next blocks' statistics, text mass over windows of blocks), and both models
are logistic regressions: a ``Network`` with no hidden layer. A one-hidden-
layer MLP (64 units) was also trained; in 5-fold cross-validation on WCXB
grouped by domain it scored F1 0.801 against logistic regression's 0.812,
and costs more per page, so the linear models ship (figures in
``benchmarks/train_web2text.py``). ``Network`` still runs either, so a
retrained MLP needs no code change. The weights are trained on WCXB's
development split (Foley 2026, CC-BY-4.0) by that script, which reproduces
``web2text.npz`` exactly; run time needs numpy only.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from importlib.resources import files

import numpy as np

from corpusbot.extraction.context import PageBlocks
from corpusbot.extraction.web2text.features import FEATURE_NAMES, features
from corpusbot.html.blocks import Block

WEIGHTS_FILE = "web2text.npz"
LABEL_PAIRS = ((0, 0), (0, 1), (1, 0), (1, 1))
"""The pairwise model's outputs, in order: (this block's label, next block's label)."""

_FLOOR = 1e-6  # probabilities are clipped here before the log, so no path scores -inf


@dataclass(slots=True, frozen=True)
class Network:
    """A multilayer perceptron: ReLU between layers, raw scores out (one layer: linear)."""

    weights: tuple[np.ndarray, ...]
    biases: tuple[np.ndarray, ...]

    def scores(self, x: np.ndarray) -> np.ndarray:
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            x = x @ w + b
            if i < len(self.weights) - 1:
                np.maximum(x, 0.0, out=x)
        return x


@dataclass(slots=True, frozen=True)
class Model:
    """The unary and pairwise networks, the feature scaling, and the pairwise weight.

    ``pairwise_weight`` (the paper's lambda) was chosen by cross-validation on
    WCXB among 0, 0.25, 0.5, 1 and 2: 0.25.
    """

    mean: np.ndarray
    scale: np.ndarray
    unary: Network
    pairwise: Network
    pairwise_weight: float

    def standardise(self, x: np.ndarray) -> np.ndarray:
        return (x - self.mean) / self.scale

    def content_probability(self, z: np.ndarray) -> np.ndarray:
        """Each block's unary probability of being content, from standardised features."""
        return 1.0 / (1.0 + np.exp(-self.unary.scores(z)[:, 0]))

    def pair_probabilities(self, z: np.ndarray) -> np.ndarray:
        """For each pair of neighbours, the probabilities of ``LABEL_PAIRS`` (rows sum to 1)."""
        if len(z) < 2:
            return np.zeros((0, 4))
        return _row_softmax(self.pairwise.scores(np.hstack([z[:-1], z[1:]])))


def _row_softmax(scores: np.ndarray) -> np.ndarray:
    """Each row of scores as probabilities (the row's maximum taken off first: no overflow)."""
    scores -= scores.max(axis=1, keepdims=True)
    exp = np.exp(scores)
    return exp / exp.sum(axis=1, keepdims=True)


def model_from_arrays(arrays: dict[str, np.ndarray]) -> Model:
    """Build a model from the arrays of a weights file (as ``save_model`` writes them)."""
    names = tuple(str(n) for n in arrays["feature_names"])
    if names != FEATURE_NAMES:
        raise ValueError("the web2text weights were trained on other features; retrain them "
                         "with benchmarks/train_web2text.py")
    return Model(
        mean=arrays["mean"], scale=arrays["scale"],
        unary=_network(arrays, "unary"), pairwise=_network(arrays, "pairwise"),
        pairwise_weight=float(arrays["pairwise_weight"]),
    )


def _network(arrays: dict[str, np.ndarray], prefix: str) -> Network:
    layers = int(arrays[f"{prefix}_layers"])
    return Network(
        weights=tuple(arrays[f"{prefix}_w{i}"].astype(np.float64) for i in range(layers)),
        biases=tuple(arrays[f"{prefix}_b{i}"].astype(np.float64) for i in range(layers)),
    )


def model_arrays(model: Model) -> dict[str, np.ndarray]:
    """The arrays to store a model, float32 weights (what ``model_from_arrays`` reads)."""
    arrays = {
        "feature_names": np.array(FEATURE_NAMES), "mean": model.mean.astype(np.float32),
        "scale": model.scale.astype(np.float32),
        "pairwise_weight": np.array(model.pairwise_weight, dtype=np.float32),
    }
    for prefix, network in (("unary", model.unary), ("pairwise", model.pairwise)):
        arrays[f"{prefix}_layers"] = np.array(len(network.weights))
        for i, (w, b) in enumerate(zip(network.weights, network.biases, strict=True)):
            arrays[f"{prefix}_w{i}"] = w.astype(np.float32)
            arrays[f"{prefix}_b{i}"] = b.astype(np.float32)
    return arrays


# Cached: the package file cannot change while the process runs; loading it
# once per process is what keeps the mode fast.
@functools.cache
def shipped_model() -> Model:
    """The model trained on WCXB that ships in the package."""
    with files("corpusbot.extraction.web2text").joinpath(WEIGHTS_FILE).open("rb") as handle:
        with np.load(handle, allow_pickle=False) as stored:
            arrays = {key: stored[key] for key in stored.files}
    return model_from_arrays(arrays)


def block_scores(page: PageBlocks, model: Model | None = None) -> np.ndarray:
    """Each block's probability of being main content (the unary model), in block order.

    For other modes to combine with their own evidence; ``select`` adds the
    pairwise model and decoding on top.
    """
    if not page.blocks:
        return np.zeros(0)
    model = model or shipped_model()
    return model.content_probability(model.standardise(features(page.blocks, page.stoplist)))


def select(page: PageBlocks, model: Model | None = None) -> list[Block]:
    """The blocks of the best labelling, in document order."""
    return [page.blocks[i] for i in np.flatnonzero(labels(page, model))]


def labels(page: PageBlocks, model: Model | None = None) -> np.ndarray:
    """The 0/1 label of each block: Viterbi over the unary and pairwise probabilities."""
    if not page.blocks:
        return np.zeros(0, dtype=np.int8)
    x = features(page.blocks, page.stoplist)
    linear = shipped_linear_form() if model is None else linear_form(model)
    if linear is not None:
        return decode(*linear.probabilities(x), linear.pairwise_weight)
    model = model or shipped_model()  # a model with a hidden layer, shipped or given
    z = model.standardise(x)
    return decode(model.content_probability(z), model.pair_probabilities(z),
                  model.pairwise_weight)


@dataclass(slots=True, frozen=True)
class LinearForm:
    """A model whose two networks are linear, with its scaling folded into one matrix.

    A linear pairwise network scores a pair as what its first block adds plus
    what its second block adds, so one product of the page's features with
    this matrix gives every block's unary score and both halves of every
    pair's scores. Standardising, stacking the pairs and two products cost
    more in numpy calls than their arithmetic on a page of 150 blocks.
    The scores are the model's in double precision, as training computes
    them (``train_web2text.predictions``).
    """

    weights: np.ndarray
    """Columns: the unary score, the pair's as its first block, the pair's as its second."""
    biases: np.ndarray
    pairwise_weight: float

    def probabilities(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``Model.content_probability`` and ``Model.pair_probabilities`` of raw features."""
        scores = x @ self.weights + self.biases
        unary = 1.0 / (1.0 + np.exp(-scores[:, 0]))
        if len(x) < 2:
            return unary, np.zeros((0, 4))
        return unary, _row_softmax(scores[:-1, 1:5] + scores[1:, 5:9])


def linear_form(model: Model) -> LinearForm | None:
    """The model as one matrix, or None when either network has a hidden layer."""
    if len(model.unary.weights) != 1 or len(model.pairwise.weights) != 1:
        return None
    width = len(model.mean)
    pair = model.pairwise.weights[0]
    weights = np.hstack([model.unary.weights[0], pair[:width], pair[width:]])
    biases = np.concatenate([model.unary.biases[0], model.pairwise.biases[0], np.zeros(4)])
    scale = model.scale.astype(np.float64)
    # (x - mean) / scale @ w + b  ==  x @ (w / scale) + (b - mean / scale @ w)
    return LinearForm(weights=weights / scale[:, None],
                      biases=biases - (model.mean.astype(np.float64) / scale) @ weights,
                      pairwise_weight=model.pairwise_weight)


@functools.cache
def shipped_linear_form() -> LinearForm | None:
    """``linear_form`` of the shipped model, built once per process."""
    return linear_form(shipped_model())


def decode(unary: np.ndarray, pairwise: np.ndarray, weight: float) -> np.ndarray:
    """The labelling maximising summed unary and weighted pairwise log-probabilities.

    ``unary[i]`` is block i's probability of label 1; ``pairwise[i]`` the
    probabilities of ``LABEL_PAIRS`` for blocks i and i+1.
    """
    p = np.clip(unary, _FLOOR, 1.0 - _FLOOR)
    node = np.column_stack([np.log1p(-p), np.log(p)])
    edge = weight * np.log(np.clip(pairwise, _FLOOR, 1.0)).reshape(-1, 2, 2)
    return viterbi(node, edge)


def viterbi(node: np.ndarray, edge: np.ndarray) -> np.ndarray:
    """Best path through ``node[i, label]`` scores and ``edge[i, label_i, label_i+1]`` scores.

    Two labels only, so the recursion runs on Python floats: per block it is
    four additions, cheaper than numpy calls on arrays of two. The scores are
    read from flat lists by index, which a compiled build reads as C doubles.
    """
    n = len(node)
    if n == 0:
        return np.zeros(0, dtype=np.int8)
    nodes: list[float] = node.ravel().tolist()
    edges: list[float] = edge.ravel().tolist()
    best0, best1 = nodes[0], nodes[1]
    back: list[int] = []  # per block after the first: bit 0, 1 set when the best way into
    for i in range(1, n):  # label 0, 1 came from label 1
        e = 4 * (i - 1)
        to0_from0, to0_from1 = best0 + edges[e], best1 + edges[e + 2]
        to1_from0, to1_from1 = best0 + edges[e + 1], best1 + edges[e + 3]
        # a tie keeps label 0 as the previous label (what max() of the pair returns first)
        from1_to0, from1_to1 = to0_from1 > to0_from0, to1_from1 > to1_from0
        back.append(from1_to0 | (from1_to1 << 1))
        best0 = (to0_from1 if from1_to0 else to0_from0) + nodes[2 * i]
        best1 = (to1_from1 if from1_to1 else to1_from0) + nodes[2 * i + 1]
    path = [0] * n
    state = int(best1 > best0)
    for i in range(n - 1, 0, -1):
        path[i] = state
        state = (back[i - 1] >> state) & 1
    path[0] = state
    return np.array(path, dtype=np.int8)
