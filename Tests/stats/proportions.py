#!/usr/bin/env python3
"""The reference for the variants report's statistics: statsmodels, which analysts use.

Reads a JSON array of cases from stdin, each {"count": [x1, x2], "nobs": [n1, n2]}, and writes a JSON array
with, per case, the two-sided p-value of statsmodels' pooled `proportions_ztest(count, nobs)` and the Wilson
95 % interval (`proportion_confint(method="wilson")`) of each side. NaN, statsmodels' answer where the test
or the interval is undefined, is written as null.
"""
import json
import math
import sys
import warnings

from statsmodels.stats.proportion import proportion_confint, proportions_ztest


def finite(value):
    value = float(value)
    return None if math.isnan(value) else value


def interval(count, nobs):
    low, high = proportion_confint(count, nobs, alpha=0.05, method="wilson")
    low, high = finite(low), finite(high)
    return None if low is None or high is None else [low, high]


def main():
    answers = []
    for case in json.load(sys.stdin):
        count, nobs = case["count"], case["nobs"]
        with warnings.catch_warnings():
            # 0/0 and division by zero are how statsmodels arrives at NaN; the NaN is the answer.
            warnings.simplefilter("ignore")
            _, p_value = proportions_ztest(count, nobs, alternative="two-sided")
            answers.append({
                "p_value": finite(p_value),
                "intervals": [interval(count[0], nobs[0]), interval(count[1], nobs[1])],
            })
    json.dump(answers, sys.stdout)


if __name__ == "__main__":
    main()
