// Package kvtest is the backend-neutral conformance suite for kv.Store.
//
// Every backend's tests call Run (or RunWith) with a function that opens a
// fresh store. The suite owns nothing but tests: it writes items through the
// Store interface, reads them back through Get and Scan, and compares what
// comes back with what a brute-force model of the contract in package kv
// says must come back.
//
// Isolation: each subtest draws a random 16-byte partition prefix and puts
// every partition it touches under it, so a backend over a shared resource
// (one DynamoDB table for the whole run) needs no cleanup between tests and
// can run subtests in parallel with other suites. The suite never uses an
// empty partition or an empty sort key (DynamoDB forbids empty key
// attributes).
//
// Ownership of stores: the suite closes every store it gets from open, once;
// open must not register its own Close.
package kvtest
