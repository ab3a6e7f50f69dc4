-- The day theme of the Telegram contest.
return {
  description = "Day: white charts, grey labels (the contest's day palette)",
  base = "day",
}
