package tokens

import "testing"

// TestNumbersNotASCII: numbers, the \p{N}{1,3} of both encodings, takes a
// number that is not ASCII (Arabic-Indic and fullwidth digits,
// superscripts) as it takes an ASCII digit, up to three of them, and stops
// at the first rune after them that is no number, ASCII or not. Each case
// calls numbers and each encoding's piece function once at the start of
// the text, so a cut that takes nothing fails here at once, where a
// counting loop would stay at the same byte forever.
func TestNumbersNotASCII(t *testing.T) {
	for _, tc := range []struct {
		text string
		end  int
	}{
		{"٣", 2},
		{"٣٤٥٦", 6},
		{"²³", 4},
		{"１２３４", 9},
		{"٣x", 2},
		{"٣é", 2},
		{"1٣é", 3},
		{"1é", 1},
		{"12日", 2},
		{"7→", 1},
	} {
		text := []byte(tc.text)
		if got := numbers(text, 0); got != tc.end {
			t.Errorf("numbers(%q, 0) = %d, want %d", tc.text, got, tc.end)
		}
		for _, e := range encodings {
			if got := e.piece(text, 0); got != tc.end {
				t.Errorf("%s: the piece at 0 of %q ends at %d, want %d", e.name, tc.text, got, tc.end)
			}
		}
	}
}
