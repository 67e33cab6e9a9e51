// Package archtest holds the test that keeps ARCHITECTURE.md's dependency
// rule true: which of zproxy's packages each package may import. It has no
// code of its own.
package archtest
