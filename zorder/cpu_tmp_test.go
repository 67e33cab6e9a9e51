package zorder
import ("testing";"fmt";"syscall";"time")
func cpuNow() time.Duration { var ru syscall.Rusage; syscall.Getrusage(syscall.RUSAGE_SELF, &ru); return time.Duration(ru.Utime.Nano()+ru.Stime.Nano()) }
func TestCPUTmp(t *testing.T){
	for _, dims := range []int{2,3} {
		s := uniformSchema(dims)
		boxes := benchBoxes(s, 101, uint64(dims))
		for _, k := range []int{1,4,8,16,64,256} {
			n := 200000/(k+4)
			c0 := cpuNow()
			for i := 0; i < n; i++ { s.Plan(boxes[i%len(boxes)], k) }
			fmt.Printf("plan dims=%d k=%d cpu %v/op\n", dims, k, (cpuNow()-c0)/time.Duration(n))
		}
		box := boxes[0]
		keys := make([][]byte, 256)
		for i := range keys { keys[i] = make([]byte, s.AddrLen()); for j := range keys[i] { keys[i][j] = byte(i*7+j*13) } }
		c0 := cpuNow(); n := 300000
		for i := 0; i < n; i++ { s.NextInBox(box, keys[i%256]) }
		fmt.Printf("next dims=%d cpu %v/op\n", dims, (cpuNow()-c0)/time.Duration(n))
	}
}
