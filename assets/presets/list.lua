-- A scrolling list of charts on a grouped-table background.
return {
  description = "List: rows 480 px high, 12 px apart, on a grouped background",
  extends = "day",
  scene = { background = "groupedBackground" },
  list = { spacing = 12, rowHeight = 480 },
}
