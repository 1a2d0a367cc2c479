from paperlint.blueprint.fidelity import fidelity_hints, split_sentences
from paperlint.blueprint.model import FidelityHints

HOEFFDING = r"""Let $X_1,\dots,X_n$ be i.i.d. random variables with values in $[0,1]$
and let $n \ge 1$. Then for all $t > 0$, % the usual form
\[ \mathbb{P}(|\bar X_n - \mu| \ge t) \le 2 e^{-2nt^2}. \]
Moreover, the constant $2$ cannot be improved."""


def test_iid_sample_statement():
    hints = fidelity_hints(HOEFFDING)
    assert hints.object_class == "i.i.d.; random variables"
    assert hints.hypotheses.startswith(r"Let $X_1,\dots,X_n$ be i.i.d. random variables")
    assert "values in [0,1]" in hints.parameter_domains
    assert r"n \ge 1" in hints.parameter_domains
    assert "t > 0" in hints.parameter_domains
    assert hints.quantifier_order == "for all t > 0"
    assert hints.conclusion.startswith("for all $t > 0$")
    assert "2 e^{-2nt^2}" in hints.conclusion
    assert "Moreover" not in hints.conclusion
    assert hints.follow_on_claims == "Moreover, the constant $2$ cannot be improved."


def test_if_then_with_quantifier_alternation_and_codomain():
    hints = fidelity_hints(
        r"If $f\colon \mathbb{R}^d \to \mathbb{R}$ is a convex function and "
        r"$x \in \mathbb{R}^d$, then for every $\epsilon>0$ there exists $\delta>0$ "
        r"such that $f(y) \le f(x) + \epsilon$ whenever $\|y - x\| < \delta$."
    )
    assert hints.hypotheses.startswith("If $f")
    assert hints.quantifier_order == r"for all \epsilon>0 -> there exists \delta>0"
    assert hints.codomain == r"\mathbb{R}"
    assert r"x \in \mathbb{R}^d" in hints.parameter_domains
    assert hints.object_class == "function"
    assert hints.conclusion.startswith("for every")


def test_enumerated_claims_are_follow_on_claims():
    hints = fidelity_hints(
        r"Suppose Assumption~\ref{ass:moments} holds. Then: \begin{enumerate}"
        r"\item[(i)] $\hat\theta_n$ is consistent; \item[(ii)] it is asymptotically normal."
        r"\end{enumerate}"
    )
    assert hints.hypotheses == r"Suppose Assumption~\ref{ass:moments} holds."
    assert hints.follow_on_claims == r"$\hat\theta_n$ is consistent; it is asymptotically normal"


def test_statement_without_recognisable_structure_leaves_fields_empty():
    hints = fidelity_hints(r"$\pi$ is irrational.")
    assert hints == FidelityHints(conclusion=r"$\pi$ is irrational")


def test_real_valued_codomain_in_prose():
    hints = fidelity_hints(r"Every real-valued martingale bounded in $L^2$ converges a.s.")
    assert hints.codomain == "real-valued"
    assert hints.object_class == "martingale"


def test_sentences_do_not_split_inside_math_or_after_abbreviations():
    text = r"Let $a = 1. B$ hold, e.g. Case A. Then $x$ is i.i.d. Gaussian. Done."
    assert split_sentences(text) == [
        r"Let $a = 1. B$ hold, e.g. Case A.",
        r"Then $x$ is i.i.d. Gaussian.",
        "Done.",
    ]


def test_labels_are_ignored_and_chained_bounds_are_domains():
    hints = fidelity_hints(
        r"\label{thm:product} Let $a, b, c, d$ be real numbers with $0 \le a \le b$ and "
        r"$0 \le c \le d$. Then $ac \le bd$."
    )
    assert hints.hypotheses.startswith("Let $a, b, c, d$ be real numbers")
    assert hints.parameter_domains == r"0 \le a \le b; 0 \le c \le d"
    assert hints.object_class == "real numbers"
    # the conclusion's inequality is not a parameter domain
    assert hints.conclusion == r"$ac \le bd$"


def test_quantifier_binds_the_math_after_a_few_words():
    hints = fidelity_hints(r"For every proportion $p \in I$, the odds satisfy $p/(1-p) \ge p$.")
    assert hints.quantifier_order == r"for all proportion p \in I"
    assert hints.parameter_domains == r"p \in I"


def test_under_clause_is_a_hypothesis_and_the_rest_the_conclusion():
    hints = fidelity_hints(
        r"Under Assumption~\ref{ass:a}, $\hat\theta_n \to \theta$ in probability."
    )
    assert hints.hypotheses == r"Under Assumption~\ref{ass:a}"
    assert hints.conclusion == r"$\hat\theta_n \to \theta$ in probability"
