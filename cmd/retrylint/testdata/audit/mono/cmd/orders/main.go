// Command orders serves the Orders service.
package main

import (
	"log"
	"net"
	"os"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	ledgerv1 "example.com/mono/gen/ledger/v1"
	"example.com/mono/internal/orders"
)

func main() {
	conn, err := grpc.NewClient(os.Getenv("LEDGER_ADDR"), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		log.Fatal(err)
	}
	lis, err := net.Listen("tcp", ":9090")
	if err != nil {
		log.Fatal(err)
	}
	log.Fatal(orders.Serve(lis, ledgerv1.NewLedgerClient(conn), os.Getenv("NOTIFY_URL")))
}
