-- The night theme of the Telegram contest.
return {
  description = "Night: dark blue charts, muted labels (the contest's night palette)",
  base = "night",
}
