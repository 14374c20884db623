from calc.total import total


class Item:
    def __init__(self, price):
        self.price = price


def test_total_keeps_cents():
    assert str(total([Item(0.29), Item(1.01)], discount=10)) == "1.17"
