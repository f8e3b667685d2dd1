"""Finding people to play: play now (seeks), challenges, and the page that offers both."""
