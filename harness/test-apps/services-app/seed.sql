INSERT INTO chats (title) VALUES ('Seeded by app.prepare');
