package main

import "grpcuse"

// server is what main starts: chosen at run time, through an interface.
type server interface{ Run() }

type ledger struct{}

func (ledger) Run() { grpcuse.ServeDirect() } // want Run:`serves`

func newLedger() *ledger { return &ledger{} }

func pick(name string) { // want pick:`serves\(/ledger.v1.Ledger/Post grpcuse.\(\*Server\).Post, /ledger.v1.Ledger/Watch`
	var srv server
	if name == "ledger" {
		srv = newLedger()
	}
	srv.Run()
}
