// Command binary serves what routes registers and the ledger: a main
// package's binary.
package main

import (
	"grpcuse"
	"routes"
)

func main() { // want main:`serves` `binary serves /ledger.v1.Ledger/Post, /ledger.v1.Ledger/Watch, POST /v1/notify, GET /kv/{key}, /static/, /h, /files/, GET /healthz, /default$`
	routes.ServeMux(&routes.S{})
	start(grpcuse.Serve)
}

func start(f func()) { f() }
