import { type BillingDatabase, openBillingDatabase } from '../testing/billing-database.fixture';
import { PriceBook } from './price-book';

describe('PriceBook (Postgres)', () => {
  let billing: BillingDatabase;

  beforeAll(async () => {
    billing = await openBillingDatabase(5);
  });
  afterAll(() => billing?.close());

  it('serves the prices of the last refresh and keeps them when a refresh meets a bad row', async () => {
    const book = new PriceBook(billing.pool);
    expect(book.priceFor('omega-text-1')).toBeUndefined();
    await billing.prisma.price.create({
      data: { model: 'omega-text-1', inputPerMillion: 3_000_000n, outputPerMillion: 15_000_000n },
    });
    await billing.prisma.price.create({ data: { model: 'img-1', perImage: { '1024x1024': '40000' } } });

    expect(book.priceFor('omega-text-1')).toBeUndefined();
    expect(await book.refresh()).toBe(2);
    expect(book.priceFor('omega-text-1')).toMatchObject({ inputPerMillion: 3_000_000n, perCall: 0n });
    expect(book.priceFor('img-1')?.perImage).toEqual({ '1024x1024': 40_000n });

    await billing.prisma.price.create({ data: { model: 'img-2', perImage: { hd: 'a lot' } } });
    await expect(book.refresh()).rejects.toThrow('img-2.perImage.hd');
    expect(book.priceFor('omega-text-1')?.outputPerMillion).toBe(15_000_000n);
    expect(book.priceFor('img-2')).toBeUndefined();
  });
});
