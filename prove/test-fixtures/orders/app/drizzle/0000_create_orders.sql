CREATE TABLE "orders" (
	"id" serial PRIMARY KEY NOT NULL,
	"item" text NOT NULL,
	"quantity" integer NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"total" numeric(10)
);
