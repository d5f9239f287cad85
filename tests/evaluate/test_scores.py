from anonymed.evaluate.scores import rounded


def test_scores_are_rounded_to_four_decimals_and_undefined_stays_null() -> None:
    assert rounded(0.123456) == 0.1235
    assert rounded(2 / 3) == 0.6667
    assert rounded(None) is None
