package builtins

import (
	"bufio"
	"os"
	"strings"
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// TestToNumber reads testdata/to_number.txt: input|template|PostgreSQL
// 15's answer (the numeric's text, NULL, or ERROR: message).
func TestToNumber(t *testing.T) {
	f, err := os.Open("testdata/to_number.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		parts := strings.SplitN(sc.Text(), "|", 3)
		if len(parts) != 3 {
			continue
		}
		n++
		in, tmpl, want := parts[0], parts[1], parts[2]
		v, err := ToNumber(in, tmpl)
		got := "NULL"
		switch {
		case err != nil:
			got = "ERROR: " + err.(*pgerr.Error).Message
		case !v.IsNull():
			got = string(sqltypes.AppendText(nil, v))
		}
		if got != want {
			t.Errorf("to_number(%q, %q) = %s, want %s", in, tmpl, got, want)
		}
	}
	if n < 50 {
		t.Fatalf("only %d cases", n)
	}
}
