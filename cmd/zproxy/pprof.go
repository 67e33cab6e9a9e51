package main

import (
	"net/http"
	"net/http/pprof"
	"runtime"
)

// Contention sampling while --pprof is on: one in mutexProfileFraction
// contended lock events, and blocking events sampled about once per
// blockProfileRate nanoseconds blocked, so the mutex and block profiles
// show where concurrent sessions wait at a cost too small to measure.
const (
	mutexProfileFraction = 100
	blockProfileRate     = 10_000
)

// registerPprof serves net/http/pprof's handlers under /debug/pprof/ on mux,
// the metrics listener's own mux (zproxy never serves http.DefaultServeMux,
// where the package also registers them), so they exist only with --pprof.
func registerPprof(mux *http.ServeMux) {
	runtime.SetMutexProfileFraction(mutexProfileFraction)
	runtime.SetBlockProfileRate(blockProfileRate)
	mux.HandleFunc("/debug/pprof/", pprof.Index) // heap, goroutine, allocs, block, mutex, threadcreate by name
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
}
