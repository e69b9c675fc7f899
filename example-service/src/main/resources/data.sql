INSERT INTO owners VALUES (1, 'George', 'Franklin', 'Madison'), (2, 'Betty', 'Davis', 'Sun Prairie'),
    (3, 'Eduardo', 'Rodriquez', 'McFarland'), (4, 'Harold', 'Davis', 'Windsor') ON CONFLICT (id) DO NOTHING;
INSERT INTO visits VALUES (1, 2, DATE '2026-01-04', 'rabies shot'), (2, 2, DATE '2026-03-04', 'neutered'),
    (3, 4, DATE '2026-06-04', 'spayed') ON CONFLICT (id) DO NOTHING;
