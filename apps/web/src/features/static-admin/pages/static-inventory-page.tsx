import { normalizeLang } from '@resi/contract';
import { Flex } from 'antd';
import { useTranslation } from 'react-i18next';
import { combineQueries, QueryState } from '@/components/query-state';
import { useBusinessLines } from '../api/get-business-lines';
import { useStaticRegions } from '../api/get-static-regions';
import { ImportCard } from '../components/import-card';
import { InventoryList } from '../components/inventory-list';
import { StockBoard } from '../components/stock-board';
import { namer } from '../components/static-names';

/** /manage/staticInventory: import static IPs, the stock board and the inventory (docs/business-rules.md#static-residential-ips). */
export default function StaticInventoryPage() {
  const { t, i18n } = useTranslation();
  const lang = normalizeLang(i18n.language);
  const catalogue = combineQueries([useStaticRegions(), useBusinessLines()]);
  return (
    <QueryState query={catalogue} rows={6} errorTitle={t('staticAdmin.namesLoadFailed')}>
      {([regions, business]) => {
        const names = namer({ regions, business }, lang);
        return (
          <Flex vertical gap={16} data-testid="static-admin">
            <ImportCard names={names} />
            <StockBoard names={names} />
            <InventoryList names={names} />
          </Flex>
        );
      }}
    </QueryState>
  );
}
