/** What the lobby says about each game type (the API gives names and seats; the one-liners are the client's). */
export const DESCRIPTIONS: Record<string, string> = {
  'raid-on-wuchao': 'Cao Cao raids Yuan Shao\'s granaries at Wuchao, 200 AD: eight rounds of movement and combat on a point-to-point map.',
  'three-kingdoms-combined-arms': 'Two to four kingdoms manoeuvre generals, cavalry, archers and rockets on a 12x12 board of cities, forests and mountains.',
  'chinese-warlords': 'Warlords of 1920s China recruit, move by boat and vehicle, and fight over villages on a hex map.',
  warchon: 'Two fantasy armies with hidden set-up fight across seven spreads; battles are decided by secretly chosen numbers.',
};
