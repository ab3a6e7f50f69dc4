-- A stack of cards.
return {
  description = "Cards: each deeper card 6 % smaller, peeking out 40 px above (its title shows)",
  extends = "day",
  scene = { background = "groupedBackground" },
  cards = { scaleStep = 0.06, offsetStep = 40 },
}
