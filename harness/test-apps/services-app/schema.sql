CREATE TABLE chats (id serial PRIMARY KEY, title text NOT NULL);
