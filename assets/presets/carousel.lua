-- A 3D carousel of cards.
return {
  description = "Carousel: 420 px cards turned 35 degrees a place",
  extends = "day",
  scene = { background = "groupedBackground" },
  carousel = { spacing = 24, itemWidth = 420, angle = 35 },
}
