// Command edge serves the HTTP edge.
package main

import (
	"log"
	"net/http"
	"os"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	ordersv1 "example.com/mono/gen/orders/v1"
	paymentsv1 "example.com/mono/gen/payments/v1"
	"example.com/mono/internal/edge"
)

func main() {
	orders, err := grpc.NewClient(os.Getenv("ORDERS_ADDR"), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		log.Fatal(err)
	}
	payments, err := grpc.NewClient(os.Getenv("PAYMENTS_ADDR"), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		log.Fatal(err)
	}
	s := edge.New(ordersv1.NewOrdersClient(orders), paymentsv1.NewPaymentsClient(payments), os.Getenv("NOTIFY_URL"), os.Getenv("ORDERS_URL"))
	mux := http.NewServeMux()
	s.Routes(mux)
	log.Fatal(http.ListenAndServe(":8080", mux))
}
