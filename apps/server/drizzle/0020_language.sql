-- Languages (DESIGN §6.7): the language a customer's emails are written in, as the web app last told the server.
ALTER TABLE "users" ADD COLUMN "language" text DEFAULT 'en' NOT NULL;
