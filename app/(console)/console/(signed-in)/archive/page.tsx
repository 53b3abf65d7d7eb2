import { ArchiveCoverage } from "./_components/archive-coverage";

// /console/archive - the market data archive's coverage per feed and entity
export default function ArchivePage() {
  return <ArchiveCoverage />;
}
