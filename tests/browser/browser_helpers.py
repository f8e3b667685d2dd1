"""Shared bits of the browser tests."""

#: Which move the page offers right now: "over", "throw", "cover" or false. Throw
#: stays focusable while it may not be pressed, so it says so with aria-disabled.
NEXT_ACTION = """() => {
  if (!document.querySelector('#result').hidden) return 'over';
  if (document.querySelector('#match').dataset.settled !== '1') return false;
  const t = document.querySelector('#throw');
  if (!t.closest('[hidden]') && t.getAttribute('aria-disabled') !== 'true') return 'throw';
  const tile = document.querySelector('.tile.offered:not(:disabled)');
  return tile ? 'cover' : false;
}"""
