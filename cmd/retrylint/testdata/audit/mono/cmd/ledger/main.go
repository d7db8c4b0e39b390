// Command ledger serves the Ledger service.
package main

import (
	"log"
	"net"
	"os"

	"example.com/mono/internal/kv"
	"example.com/mono/internal/ledger"
)

func main() {
	lis, err := net.Listen("tcp", ":9090")
	if err != nil {
		log.Fatal(err)
	}
	log.Fatal(ledger.Serve(lis, kv.New(os.Getenv("DB_URL"))))
}
