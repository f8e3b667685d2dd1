"""Shared bits of the browser tests."""

#: Which move the page offers right now: "over", "throw", "cover" or false.
NEXT_ACTION = """() => {
  if (!document.querySelector('#result').hidden) return 'over';
  if (document.querySelector('#match').dataset.settled !== '1') return false;
  if (!document.querySelector('#throw').disabled) return 'throw';
  const t = document.querySelector('.tile.offered:not(:disabled)');
  return t ? 'cover' : false;
}"""
