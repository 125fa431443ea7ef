// Package plural spells a count and its noun for messages: "1 row",
// "2 rows", "0 rows".
package plural

import "strconv"

// Count returns n and noun, with the noun in the plural unless n is 1.
// The plural adds "s", which is right for every noun the module's
// messages count (row, section, field, value, vector, token, member).
func Count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
