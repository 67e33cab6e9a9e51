package main

import "testing"

// TestCountingWriterLines checks that a COPY's line set does not depend on
// how its bytes are split into writes or on the order of its lines, and
// that it tells different lines apart.
func TestCountingWriterLines(t *testing.T) {
	set := func(chunks ...string) lineSet {
		var w countingWriter
		for _, c := range chunks {
			w.Write([]byte(c))
		}
		return w.lines
	}
	whole := set("1\t2024-01-01 00:00:00\t\\N\n2\t2024-01-02 00:00:00\tx\n")
	if whole.n != 2 {
		t.Fatalf("%d lines, want 2", whole.n)
	}
	for _, c := range []struct {
		name   string
		chunks []string
		same   bool
	}{
		{"split inside lines", []string{"1\t2024-01-01 0", "0:00:00\t\\N\n2\t2024", "-01-02 00:00:00\tx\n"}, true},
		{"one byte a write", splitBytes("1\t2024-01-01 00:00:00\t\\N\n2\t2024-01-02 00:00:00\tx\n"), true},
		{"other order", []string{"2\t2024-01-02 00:00:00\tx\n", "1\t2024-01-01 00:00:00\t\\N\n"}, true},
		{"a value changed", []string{"1\t2024-01-01 00:00:00\t\\N\n2\t2024-01-02 00:00:00\ty\n"}, false},
		{"a line break moved", []string{"1\t2024-01-01 00:00:00\t\\N2\n\t2024-01-02 00:00:00\tx\n"}, false},
		{"a line missing", []string{"1\t2024-01-01 00:00:00\t\\N\n"}, false},
	} {
		if got := set(c.chunks...); (got == whole) != c.same {
			t.Errorf("%s: %+v against %+v, same = %v", c.name, got, whole, c.same)
		}
	}
}

func splitBytes(s string) []string {
	out := make([]string, len(s))
	for i := range s {
		out[i] = s[i : i+1]
	}
	return out
}
