// The relational data set the database servers are recorded on: a small
// shop (customers, products, orders, order lines), made by a seeded
// generator so that every recording loads the same rows. It is written as
// SQL that PostgreSQL and SQLite both run.

// mulberry32: a small seeded PRNG, so that the rows are the same on every
// machine and Node.js version.
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const firstNames = ['Amelia', 'Jonas', 'Priya', 'Mateo', 'Sofia', 'Liam', 'Chen', 'Fatima', 'Noah', 'Elena', 'Kwame', 'Yuki',
  'Olga', 'Diego', 'Hannah', 'Ravi', 'Isabel', 'Tomasz', 'Aisha', 'Lucas', 'Maren', 'Omar', 'Grace', 'Henrik', 'Lucia',
  'Samuel', 'Ingrid', 'Arjun', 'Chloe', 'Mikhail'];
const lastNames = ['Okafor', 'Schmidt', 'Patel', 'García', 'Rossi', 'Murphy', 'Wang', 'Haddad', 'Johnson', 'Novak', 'Mensah',
  'Tanaka', 'Ivanova', 'Fernández', 'Becker', 'Sharma', 'Costa', 'Kowalski', 'Bello', 'Martin', 'Lund', 'Farouk', 'Kim',
  'Nilsen', 'Moreau', 'Adeyemi', 'Berg', 'Iyer', 'Dubois', 'Volkov'];
const cities = [['Berlin', 'DE'], ['Lisbon', 'PT'], ['Toronto', 'CA'], ['Austin', 'US'], ['Lyon', 'FR'], ['Osaka', 'JP'],
  ['Nairobi', 'KE'], ['Kraków', 'PL'], ['Melbourne', 'AU'], ['Bristol', 'GB'], ['Madrid', 'ES'], ['Chicago', 'US'],
  ['Oslo', 'NO'], ['Pune', 'IN'], ['Accra', 'GH'], ['Milan', 'IT']];
const domains = ['example.com', 'mail.example.org', 'example.net', 'post.example.co.uk'];
const products = [
  ['Espresso beans, 1 kg', 'coffee', '24.90'], ['Filter coffee, 500 g', 'coffee', '11.50'], ['Decaf beans, 250 g', 'coffee', '8.90'],
  ['Cold brew concentrate', 'coffee', '14.00'], ['Green tea, loose leaf', 'tea', '9.75'], ['Earl Grey, 50 bags', 'tea', '6.40'],
  ['Chai spice blend', 'tea', '7.80'], ['Rooibos, 100 g', 'tea', '5.95'], ['Burr grinder', 'equipment', '129.00'],
  ['Pour-over kettle', 'equipment', '59.00'], ['French press, 1 l', 'equipment', '34.50'], ['Paper filters, 100', 'supplies', '4.20'],
  ['Milk frother', 'equipment', '45.00'], ['Travel mug', 'accessories', '19.90'], ['Ceramic cup set', 'accessories', '28.00'],
  ['Digital scale', 'equipment', '32.00'], ['Descaling tablets', 'supplies', '9.90'], ['Cleaning brush kit', 'supplies', '12.30'],
  ['Oat milk, 6 x 1 l', 'groceries', '15.60'], ['Almond biscotti', 'groceries', '6.90'], ['Dark chocolate, 70%', 'groceries', '3.80'],
  ['Honey, 500 g', 'groceries', '9.40'], ['Gift card 25', 'gift', '25.00'], ['Gift card 50', 'gift', '50.00'],
  ['Espresso machine', 'equipment', '549.00'], ['Knock box', 'accessories', '22.00'], ['Tamper, 58 mm', 'accessories', '27.50'],
  ['Matcha, ceremonial grade', 'tea', '21.00'], ['Moka pot, 6 cups', 'equipment', '38.00'], ['Reusable filter', 'supplies', '13.90'],
  ['Syrup, vanilla', 'groceries', '7.20'], ['Syrup, caramel', 'groceries', '7.20'], ['Cocoa powder', 'groceries', '8.10'],
  ['Glass carafe', 'accessories', '24.00'], ['Subscription box, monthly', 'coffee', '32.00'], ['Barista apron', 'accessories', '29.00'],
];
const statuses = ['delivered', 'delivered', 'delivered', 'delivered', 'shipped', 'shipped', 'processing', 'cancelled', 'refunded'];

function sqlString(s) { return "'" + s.replace(/'/g, "''") + "'"; }
function pad(n) { return String(n).padStart(2, '0'); }

// rows returns the data set as plain objects.
export function rows(seed = 35) {
  const rnd = prng(seed);
  const pick = (a) => a[Math.floor(rnd() * a.length)];
  const customers = [];
  for (let id = 1; id <= 120; id++) {
    const first = pick(firstNames), last = pick(lastNames);
    const [city, country] = pick(cities);
    const local = (first + '.' + last).toLowerCase().normalize('NFD').replace(/[\u0300-\u036f]/g, '');
    const month = 1 + Math.floor(rnd() * 12), day = 1 + Math.floor(rnd() * 28);
    customers.push({
      id, name: `${first} ${last}`, email: `${local}${id}@${pick(domains)}`, city, country,
      signed_up: `${2023 + Math.floor(rnd() * 3)}-${pad(month)}-${pad(day)}`,
      marketing_opt_in: rnd() < 0.4,
    });
  }
  const productRows = products.map(([name, category, price], i) => ({
    id: i + 1, sku: `SKU-${String(1000 + i * 7)}`, name, category, price, in_stock: Math.floor(rnd() * 240),
  }));
  const orders = [], lines = [];
  let lineID = 1;
  for (let id = 1; id <= 400; id++) {
    const month = 1 + Math.floor(rnd() * 11), day = 1 + Math.floor(rnd() * 28);
    const hour = 7 + Math.floor(rnd() * 15), minute = Math.floor(rnd() * 60);
    const n = 1 + Math.floor(rnd() * 4);
    let total = 0;
    for (let k = 0; k < n; k++) {
      const p = pick(productRows);
      const qty = 1 + Math.floor(rnd() * 3);
      total += qty * Math.round(parseFloat(p.price) * 100);
      lines.push({ id: lineID++, order_id: id, product_id: p.id, quantity: qty, unit_price: p.price });
    }
    orders.push({
      id, customer_id: 1 + Math.floor(rnd() * customers.length), status: pick(statuses),
      placed_at: `2026-${pad(month)}-${pad(day)} ${pad(hour)}:${pad(minute)}:00`,
      total: (total / 100).toFixed(2),
    });
  }
  return { customers, products: productRows, orders, order_lines: lines };
}

// sql returns the data set as SQL statements.
export function sql(seed = 35) {
  const d = rows(seed);
  const out = [
    'CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT NOT NULL UNIQUE, city TEXT NOT NULL, country CHAR(2) NOT NULL, signed_up DATE NOT NULL, marketing_opt_in BOOLEAN NOT NULL DEFAULT FALSE);',
    'CREATE TABLE products (id INTEGER PRIMARY KEY, sku TEXT NOT NULL UNIQUE, name TEXT NOT NULL, category TEXT NOT NULL, price NUMERIC(10,2) NOT NULL, in_stock INTEGER NOT NULL);',
    'CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL REFERENCES customers(id), status TEXT NOT NULL, placed_at TIMESTAMP NOT NULL, total NUMERIC(10,2) NOT NULL);',
    'CREATE TABLE order_lines (id INTEGER PRIMARY KEY, order_id INTEGER NOT NULL REFERENCES orders(id), product_id INTEGER NOT NULL REFERENCES products(id), quantity INTEGER NOT NULL, unit_price NUMERIC(10,2) NOT NULL);',
    'CREATE INDEX orders_customer_id ON orders(customer_id);',
    'CREATE INDEX order_lines_order_id ON order_lines(order_id);',
  ];
  for (const c of d.customers) {
    out.push(`INSERT INTO customers VALUES (${c.id}, ${sqlString(c.name)}, ${sqlString(c.email)}, ${sqlString(c.city)}, '${c.country}', '${c.signed_up}', ${c.marketing_opt_in ? 'TRUE' : 'FALSE'});`);
  }
  for (const p of d.products) {
    out.push(`INSERT INTO products VALUES (${p.id}, '${p.sku}', ${sqlString(p.name)}, '${p.category}', ${p.price}, ${p.in_stock});`);
  }
  for (const o of d.orders) {
    out.push(`INSERT INTO orders VALUES (${o.id}, ${o.customer_id}, '${o.status}', '${o.placed_at}', ${o.total});`);
  }
  for (const l of d.order_lines) {
    out.push(`INSERT INTO order_lines VALUES (${l.id}, ${l.order_id}, ${l.product_id}, ${l.quantity}, ${l.unit_price});`);
  }
  return out.join('\n') + '\n';
}
