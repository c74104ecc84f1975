CREATE TABLE "provider_usage" (
	"provider_id" text NOT NULL,
	"vendor_id" text,
	"day" date NOT NULL,
	"calls" integer DEFAULT 0 NOT NULL,
	"successes" integer DEFAULT 0 NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"spend" numeric(20, 6) DEFAULT '0' NOT NULL,
	"currency" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "provider_usage_pkey" PRIMARY KEY("provider_id","day"),
	CONSTRAINT "provider_usage_counts_valid" CHECK ("provider_usage"."successes" >= 0 and "provider_usage"."failures" >= 0 and "provider_usage"."calls" = "provider_usage"."successes" + "provider_usage"."failures"),
	CONSTRAINT "provider_usage_spend_non_negative" CHECK ("provider_usage"."spend" >= 0)
);
--> statement-breakpoint
CREATE INDEX "provider_usage_day_idx" ON "provider_usage" USING btree ("day");