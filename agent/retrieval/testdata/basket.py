"""A shopping basket."""


class Basket:
    """Holds the items a customer picked and what they cost."""

    def __init__(self, owner):
        self.owner = owner
        self._items = []
        self._coupons = []

    def add(self, item, count=1):
        for _ in range(count):
            self._items.append(item)

    def remove(self, item):
        if item in self._items:
            self._items.remove(item)

    def clear(self):
        self._items = []
        self._coupons = []

    @property
    def owner_name(self):
        return self.owner.name

    @cached_property
    def total(self):
        """The price of every item in the basket, with each coupon's
        discount taken off. A coupon that is out of date is skipped,
        and the total never falls below zero.

        The discount of a coupon is a share of the price: a coupon of
        ten percent takes a tenth of the price of every item off.

        Reading the total again does not add the prices up again: it
        is kept until the basket changes.
        """
        price = 0
        for item in self._items:
            price += item.price
        discount = self._discount(price)
        if discount > price:
            discount = price
        return price - discount

    def _discount(self, price):
        off = 0
        seen = set()
        for coupon in self._coupons:
            if coupon.code in seen:
                continue
            seen.add(coupon.code)
            if coupon.expired():
                continue
            if coupon.percent <= 0:
                continue
            if coupon.percent > 100:
                off += price
                continue
            off += price * coupon.percent / 100
        return off

    def receipt(self):
        lines = []
        for item in self._items:
            lines.append("%s %s" % (item.name, item.price))
        lines.append("total %s" % self.total)
        return "\n".join(lines)

    def __len__(self):
        return len(self._items)
